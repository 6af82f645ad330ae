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

    /// Long-running work: a checkpoint of the trail every 5 seconds, for as
    /// long as the app runs. It ends by cancellation, so it says so: at
    /// shutdown `cancelOnDrain` cancels the loop in its turn, the sleep
    /// throws `CancellationError`, and the run ends; then `stop` is called.
    func run(_ context: ModuleContext) async throws {
        try await context.cancelOnDrain {
            var checkpoints = 0
            defer { context.log("    Audit: checkpointer ended after \(checkpoints) checkpoints") }
            while true {
                try await Task.sleep(for: .seconds(5))
                checkpoints += 1
                context.log("    Audit: checkpoint \(checkpoints)")
            }
        }
    }

    func reload(_ context: ModuleContext) async throws {
        context.log("    Audit: reloaded rules")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("    Audit: flushed the trail")
    }
}
