import Contracts
import SectionRegistry

@AppModule(level: .service, priority: 10, after: ["Accounts"])
struct Billing: AppModule {
    func start(_ context: ModuleContext) async throws {
        let accounts = try context.service(AccountDirectory.self)
        context.log("Billing: billing \(accounts.userNames.joined(separator: ", "))")
    }
}
