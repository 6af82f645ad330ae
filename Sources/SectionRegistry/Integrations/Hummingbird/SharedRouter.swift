#if Hummingbird
import Hummingbird
import Synchronization

/// One Hummingbird router that every module adds its routes to, shared as a
/// service: the server module builds its responder. Under the `Hummingbird`
/// trait.
///
/// A core module registers it in `setUp`, each feature adds its routes in
/// `start`, and the server module, late, serves them in its `run`:
///
/// ```swift
/// // The core module:
/// try context.register(SharedRouter<BasicRequestContext>.self) { router }
/// // A feature's start:
/// try context.service(SharedRouter<BasicRequestContext>.self).add { router in
///     router.get("/notes") { _, _ in try await notes.all() }
/// }
/// // The server's run:
/// let app = Application(responder: try context.service(SharedRouter<BasicRequestContext>.self).responder(), configuration: ...)
/// try await context.serve(app, health: .standard)
/// ```
///
/// A Hummingbird `Router` is a class that is not `Sendable`; a service must
/// be, so this keeps it behind a lock. A route added once the server built
/// its responder would never be served: ``add(_:)`` then throws, naming the
/// fix, instead.
public final class SharedRouter<Context: RequestContext>: Sendable {
    private let router = Mutex((router: Router(context: Context.self), built: false))

    /// An empty router.
    public init() {}

    /// Adds routes, or middleware: call it before the server module builds
    /// its responder (a feature's `setUp` or `start`).
    ///
    /// - Throws: ``RoutesAddedTooLate`` once ``responder()`` was built: what
    ///   this would add would not be served.
    public func add(_ body: (Router<Context>) -> Void) throws {
        try router.withLock { state in
            guard !state.built else { throw RoutesAddedTooLate() }
            body(state.router)
        }
    }

    /// What answers requests, built from the routes added so far; later
    /// ``add(_:)`` calls throw.
    public func responder() -> RouterResponder<Context> {
        router.withLock { state in
            state.built = true
            return state.router.buildResponder()
        }
    }
}

/// ``SharedRouter/add(_:)`` was called after the server built its
/// responder: the routes would not be served.
public struct RoutesAddedTooLate: Error, CustomStringConvertible {
    public var description: String {
        "routes were added to the SharedRouter after the server built its responder, so they would never be served: "
            + "add them in the module's setUp or start, which come before the server module's run (make that module late, "
            + "or list it after the others)"
    }
}
#endif
