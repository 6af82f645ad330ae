import SectionRegistry
import Synchronization
import Vapor

@c(app_module_Routes) func makeRoutes() -> AppModuleHandle { AppModuleHandle(RoutesModule()) }

/// The routes every module adds, shared as a service. Vapor adds routes to
/// an `Application`, which exists only once the HTTP module's `run` has
/// made it; so each module leaves a function here, and HTTP calls them all
/// on the application before it starts the server.
public final class RouteTable: Sendable {
    private let registrations = Mutex<[@Sendable (any RoutesBuilder) -> Void]>([])

    public init() {}

    /// Adds routes: call it in `start`, before the HTTP module makes the
    /// application in its `run`.
    public func add(_ registration: @escaping @Sendable (any RoutesBuilder) -> Void) {
        registrations.withLock { $0.append(registration) }
    }

    /// Adds every module's routes to `routes`, in the order they came.
    public func apply(to routes: any RoutesBuilder) {
        for registration in registrations.withLock({ $0 }) {
            registration(routes)
        }
    }
}

/// A core module: it offers the route table before any feature starts.
struct RoutesModule: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        let table = RouteTable()
        try context.register(RouteTable.self) { table }
    }
}
