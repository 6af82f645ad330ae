import ExampleContracts
import SectionRegistry

@c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }

/// A feature that uses the Accounts service; it starts alongside Search.
struct Billing: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(OpenPath.self) { request in
            request.path.hasPrefix("/billing/") ? "invoice \(request.path.dropFirst("/billing/".count)): paid" : nil
        }
        context.on(DailyReport.self) { report in "Billing: 12 invoices on \(report.day)" }
        context.on(HealthCheck.self) { _, responder in
            // Answers from a callback, later, as a database driver would.
            Task {
                try await Task.sleep(for: .milliseconds(20))
                responder.respond(true)
            }
        }
    }

    func start(_ context: ModuleContext) async throws {
        let accounts = try context.service(AccountDirectory.self)
        context.log("    Billing: billing \(accounts.userNames.joined(separator: ", "))")
    }

    func reload(_ context: ModuleContext) async throws {
        context.log("    Billing: reloaded tariffs")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("    Billing: closed the ledger")
    }
}
