// The bridge between the host's drain and swift-service-lifecycle's graceful
// shutdown, both ways, under the `ServiceLifecycle` trait. Without the trait
// both functions only call their body.
#if ServiceLifecycle
import ServiceLifecycle
import ServiceLifecycleTestKit
#endif

/// Runs every module's `run` body so that swift-service-lifecycle's
/// `gracefulShutdown()`, `cancelWhenGracefulShutdown` and
/// `withGracefulShutdownHandler` inside it see the host's drain request for
/// this module (`life`), and only that: a `try await app.run()` (Hummingbird)
/// or `await client.run()` (PostgresClient) drains when the host asks, with
/// no adapter code.
///
/// ServiceLifecycle keeps a graceful-shutdown manager in a task-local that
/// only a `ServiceGroup` sets. There are two ways to set one for a run:
///
/// - A `ServiceGroup` of one service per run, with `triggerGracefulShutdown()`
///   on drain: public, but each run then pays for an actor, a `Logger`, a
///   task group with a child task for the service and one for the group's
///   own events, and the group's rules on a service that returns (it ends
///   the group), which the host already has.
/// - The task-local itself, through `testGracefulShutdown { trigger in }` of
///   the package's `ServiceLifecycleTestKit` product: the public wrapper of
///   the `@_spi(TestKit)` manager. One manager (an object and its lock) and
///   one task-local binding per run, no task, no actor; stable as the
///   package's public API is (the `@_spi` it wraps is not ours to import).
///
/// The second is what this does: 1.5-2.3 us per run against 42-53 us for
/// the group, measured with Swift 6.3.1 -O on 2 busy cores (see
/// Servers.md). It binds a manager of the run's own, so a
/// run never sees a graceful shutdown meant for the whole task tree (a host
/// inside a `ServiceGroup`): the host drains its runs one by one, in reverse
/// start order, and each run hears only its own turn.
///
/// Always inlined: without the trait it is the call of `body` alone, with
/// no frame of its own (about 400 instructions a `run`).
@inline(__always)
func withDrainAsGracefulShutdown(_ life: ModuleLife, _ body: @escaping @Sendable () async throws -> Void) async throws {
    #if ServiceLifecycle
    try await testGracefulShutdown { trigger in
        try await life.withDrainHandler(body) { trigger.triggerGracefulShutdown() }
    }
    #else
    try await body()
    #endif
}

/// Runs `operation`, and calls `handler` if the task running it is shut down
/// gracefully by a swift-service-lifecycle `ServiceGroup` (at once if it is
/// already): how a group's graceful shutdown becomes the host's drain.
/// Without the `ServiceLifecycle` trait, or outside a group, it only runs
/// `operation`. Typed throws, so that `run() throws(HostError)` can wrap
/// its body in it.
func onGracefulShutdown<T, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping @Sendable () -> Void,
    operation: () async throws(Failure) -> T
) async throws(Failure) -> T {
    #if ServiceLifecycle
    // withGracefulShutdownHandler rethrows untyped: the Result carries the
    // error's type through it.
    let result = await withGracefulShutdownHandler(isolation: isolation) { () async -> Result<T, Failure> in
        do throws(Failure) {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    } onGracefulShutdown: {
        handler()
    }
    return try result.get()
    #else
    return try await operation()
    #endif
}
