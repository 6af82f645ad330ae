import SectionRegistry

@c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }

/// A feature: bills the accounts.
struct Billing: AppModule {
    func setUp() async throws {
        print("    Billing: opened the ledger for November")
    }
}
