import SectionRegistry
#if canImport(Glibc)
import Glibc
#endif

@c(app_module_Store) func makeStore() -> AppModuleHandle { AppModuleHandle(Store()) }

/// WORKER_SLOW_START: start awaits a minute (SIGTERM must cut it short).
/// WORKER_HUNG_STOP: stop ignores its cancellation past the stop limit.
struct Store: AppModule {
    func start(_ context: ModuleContext) async throws {
        if context.environment["WORKER_SLOW_START"] != nil {
            context.log("Store: starting slowly")
            try await Task.sleep(for: .seconds(60))
        }
        context.log("Store: started")
    }

    func stop(_ context: ModuleContext) async throws {
        if context.environment["WORKER_HUNG_STOP"] != nil {
            context.log("Store: stop hangs")
            await Task { try? await Task.sleep(for: .seconds(60)) }.value
        }
        context.log("Store: stopped")
    }
}
