import Contracts
import SectionRegistry

@AppModule(level: .service)
struct Accounts: AppModule {
    struct Directory: AccountDirectory {
        var userNames: [String] { ["ada", "grace"] }
    }

    func setUp(_ context: ModuleContext) async throws {
        try context.register(AccountDirectory.self) { Directory() }
    }
}
