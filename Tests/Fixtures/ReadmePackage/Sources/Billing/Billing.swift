import Contracts
import SectionRegistry

@c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }

struct Billing: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(OpenPath.self) { request in request.path.hasPrefix("/billing/") ? "invoice" : nil }
        context.on(DailyReport.self) { report in "12 invoices on \(report.day)" }
        context.on(HealthCheck.self) { _, responder in responder.respond(true) }
    }

    func start(_ context: ModuleContext) async throws {
        let accounts = try context.service(AccountDirectory.self)
        context.log("Billing: billing \(accounts.userNames.joined(separator: ", "))")
    }
}
