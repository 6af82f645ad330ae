import SectionRegistry

@c(app_module_Greeter) func makeGreeter() -> AppModuleHandle { AppModuleHandle(Greeter()) }

struct Greeter: AppModule {
    func start(_ context: ModuleContext) async throws {
        print("Greeter: hello")
    }
}
