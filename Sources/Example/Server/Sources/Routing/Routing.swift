import Hummingbird
import SectionRegistry

@c(app_module_Routing) func makeRouting() -> AppModuleHandle { AppModuleHandle(Routing()) }

/// The router every module adds its routes to, shared as a service: the
/// trait's `SharedRouter`, for requests with Hummingbird's basic context.
public typealias Routes = SharedRouter<BasicRequestContext>

/// A core module: it offers the router before any feature starts. The
/// probes of a load balancer or Kubernetes (`/health/ready`,
/// `/health/live`) are answered by HTTP's `context.serve(app, health:
/// .standard)`, not by a route here.
struct Routing: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        let routes = Routes()
        try context.register(Routes.self) { routes }
    }
}
