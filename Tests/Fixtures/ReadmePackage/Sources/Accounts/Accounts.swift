import Contracts
import SectionRegistry

@c(app_module_Accounts) func makeAccounts() -> AppModuleHandle { AppModuleHandle(Accounts()) }

struct Accounts: AppModule {
    struct Directory: AccountDirectory {
        var userNames: [String] { ["ada", "grace"] }
    }

    func setUp(_ context: ModuleContext) async throws {
        try context.register(AccountDirectory.self) { Directory() }
        context.on(OpenPath.self) { request in request.path.hasPrefix("/accounts/") ? "profile" : nil }
        context.on(HealthCheck.self) { _, responder in responder.respond(true) }
    }

    /// Long-running work, from right after its start until shutdown. It
    /// ends by cancellation, and says so: at shutdown the host cancels it
    /// in its turn, before the stop hooks.
    func run(_ context: ModuleContext) async throws {
        try await context.cancelOnDrain {
            while true {
                try await Task.sleep(for: .seconds(60))
                context.log("Accounts: directory refreshed")
            }
        }
    }
}
