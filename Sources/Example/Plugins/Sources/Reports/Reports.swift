import SectionRegistry
import Synchronization

@c(app_module_Reports) func makeReports() -> AppModuleHandle { AppModuleHandle(Reports()) }

/// How many times a Reports module was started in this process: the plugin
/// is never unmapped, so this survives unloading and loading it again.
private let starts = Atomic<Int>(0)

/// The plugin's module: it comes after the program's Clock.
struct Reports: AppModule {
    func start(_ context: ModuleContext) async throws {
        let count = starts.add(1, ordering: .relaxed).newValue
        context.log("  Reports: started (start #\(count) in this process)")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("  Reports: stopped")
    }
}
