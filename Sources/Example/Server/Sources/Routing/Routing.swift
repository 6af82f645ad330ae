import Hummingbird
import SectionRegistry
import Synchronization

@c(app_module_Routing) func makeRouting() -> AppModuleHandle { AppModuleHandle(Routing()) }

/// The router every module adds its routes to, shared as a service. A
/// Hummingbird `Router` is a class that is not `Sendable`; a service must
/// be, so the router is kept behind a lock.
public final class Routes: Sendable {
    private let router = Mutex(Router())

    public init() {}

    /// Adds routes: call it in `start`, before the HTTP module builds the
    /// server in its `run`.
    public func add(_ body: (Router<BasicRequestContext>) -> Void) {
        router.withLock { body($0) }
    }

    /// What answers requests, built from the routes added so far.
    public func responder() -> RouterResponder<BasicRequestContext> {
        router.withLock { $0.buildResponder() }
    }
}

/// A core module: it offers the router before any feature starts, and
/// answers the probes of a load balancer or Kubernetes: `/health/live`, 200
/// while the process serves; `/health/ready`, 200 while the host is ready,
/// 503 from the moment its shutdown begins, through the lame-duck delay.
struct Routing: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        let routes = Routes()
        try context.register(Routes.self) { routes }
        routes.add { router in
            router.get("/health/live") { _, _ in HTTPResponse.Status.ok }
            router.get("/health/ready") { _, _ in context.isHostReady ? HTTPResponse.Status.ok : .serviceUnavailable }
        }
    }
}
