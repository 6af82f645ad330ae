import Routes
import SectionRegistry
import Vapor

@c(app_module_Jobs) func makeJobs() -> AppModuleHandle { AppModuleHandle(Jobs()) }

/// A feature: `GET /slow?ms=N` works for N milliseconds (1,000 by default),
/// then answers "done": a request that is in flight for a while, to see a
/// drain finish it.
struct Jobs: AppModule {
    func start(_ context: ModuleContext) async throws {
        try context.service(RouteTable.self).add { routes in
            routes.get("slow") { request in
                let milliseconds = request.query[Int.self, at: "ms"] ?? 1000
                try await Task.sleep(for: .milliseconds(milliseconds))
                return "done\n"
            }
        }
    }
}
