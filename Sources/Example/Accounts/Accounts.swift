import ExampleContracts
import SectionRegistry

@c(app_module_Accounts) func makeAccounts() -> AppModuleHandle { AppModuleHandle(Accounts()) }

/// A shared service: the user accounts the other features look up.
struct Accounts: AppModule {
    struct Directory: AccountDirectory {
        let userNames = ["ada", "grace", "linus"]
    }

    func setUp(_ context: ModuleContext) async throws {
        try context.register(AccountDirectory.self) { Directory() }
        context.on(OpenPath.self) { request in
            request.path.hasPrefix("/accounts/") ? "profile of \(request.path.dropFirst("/accounts/".count))" : nil
        }
        context.on(HealthCheck.self) { _ in true }
    }

    func start(_ context: ModuleContext) async throws {
        context.log("    Accounts: serving \(Directory().userNames.count) accounts")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("    Accounts: stopped")
    }
}
