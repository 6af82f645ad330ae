import SectionRegistry

@c(app_module_Clock) func makeClock() -> AppModuleHandle { AppModuleHandle(Clock()) }

struct Clock: AppModule {
    func start(_ context: ModuleContext) async throws {
        context.log("  Clock: started")
    }
}
