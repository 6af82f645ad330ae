import SectionRegistry

@c(app_module_Greeter) func makeGreeter() -> AppModuleHandle { AppModuleHandle(Greeter()) }

struct Greeter: AppModule {
    func setUp() async throws {
        print("Greeter: hello")
    }
}
