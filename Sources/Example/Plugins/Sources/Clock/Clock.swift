import SectionRegistry

@c(app_module_Clock) func makeClock() -> AppModuleHandle { AppModuleHandle(Clock()) }

/// The program's own module, linked into registry-plugin-host.
struct Clock: AppModule {
    func start(_ context: ModuleContext) async throws {
        context.log("  Clock: started")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("  Clock: stopped")
    }
}
