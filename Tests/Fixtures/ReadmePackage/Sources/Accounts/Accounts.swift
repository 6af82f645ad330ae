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
}
