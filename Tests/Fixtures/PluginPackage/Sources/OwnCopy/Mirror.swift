import SectionRegistry

@c(app_module_Mirror) func makeMirror() -> AppModuleHandle { AppModuleHandle(Mirror()) }

struct Mirror: AppModule {
    func start(_ context: ModuleContext) async throws {
        context.log("  Mirror: started")
    }
}
