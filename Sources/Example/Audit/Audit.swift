import SectionRegistry

@c(app_module_Audit) func makeAudit() -> AppModuleHandle { AppModuleHandle(Audit()) }

/// A late module: it records what the others did.
struct Audit: AppModule {
    func setUp() async throws {
        print("    Audit: recording from now on")
    }
}
