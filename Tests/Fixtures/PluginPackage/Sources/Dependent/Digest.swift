import SectionRegistry

@c(app_module_Digest) func makeDigest() -> AppModuleHandle { AppModuleHandle(Digest()) }

struct Digest: AppModule {
    func start(_ context: ModuleContext) async throws {
        context.log("  Digest: started")
    }
}
