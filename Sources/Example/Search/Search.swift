import ExampleContracts
import SectionRegistry

@c(app_module_Search) func makeSearch() -> AppModuleHandle { AppModuleHandle(Search()) }

/// A feature with a higher priority than Billing, so it comes first in its
/// level; it starts alongside Billing.
struct Search: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(OpenPath.self) { request in
            request.path.hasPrefix("/search?q=") ? "3 results for \(request.path.dropFirst("/search?q=".count))" : nil
        }
        // Never answers the health check: the time limit reports it.
        context.on(HealthCheck.self) { _, _ in }
    }

    func start(_ context: ModuleContext) async throws {
        context.log("    Search: indexed 128 documents")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("    Search: closed the index")
    }
}
