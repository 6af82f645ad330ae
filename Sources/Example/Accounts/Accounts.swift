import SectionRegistry

@c(app_module_Accounts) func makeAccounts() -> AppModuleHandle { AppModuleHandle(Accounts()) }

/// A shared service: the user accounts every feature looks up.
struct Accounts: AppModule {
    let users = ["ada", "grace", "linus"]

    func setUp() async throws {
        print("    Accounts: loaded \(users.count) user accounts")
    }
}
