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
/// be, so this keeps it behind a lock. Routes added after
/// ``responder()`` was built are not in that responder.
public final class SharedRouter<Context: RequestContext>: Sendable {
    private let router = Mutex(Router(context: Context.self))

    /// An empty router.
    public init() {}

    /// Adds routes, or middleware: call it before the server module builds
    /// its responder (a feature's `setUp` or `start`).
    public func add(_ body: (Router<Context>) -> Void) {
        router.withLock { body($0) }
    }

    /// What answers requests, built from the routes added so far.
    public func responder() -> RouterResponder<Context> {
        router.withLock { $0.buildResponder() }
    }
}
#endif
