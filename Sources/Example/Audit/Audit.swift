import ExampleContracts
import SectionRegistry

@c(app_module_Audit) func makeAudit() -> AppModuleHandle { AppModuleHandle(Audit()) }

/// A late module: it records what the others did.
struct Audit: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(DailyReport.self) { report in "Audit: 0 anomalies on \(report.day)" }
        context.on(HealthCheck.self) { _ in true }
    }

    func ready(_ context: ModuleContext) async throws {
        context.log("    Audit: every module has started; recording")
    }

    func reload(_ context: ModuleContext) async throws {
        context.log("    Audit: reloaded rules")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("    Audit: flushed the trail")
    }
}
