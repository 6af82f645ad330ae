/// A feature of the app that registers itself by being linked.
///
/// A module is created by its factory, the `@c(app_module_NAME)` function its
/// `APP_MODULE(NAME)` record points to. A ``ModuleHost`` then takes it
/// through its hooks, each optional (a hook a module does not write is never
/// called):
///
/// 1. ``setUp(_:)``: register services and event handlers; in start order.
/// 2. ``start(_:)``: begin work; after the modules it comes after have
///    started, alongside others if its record says it may.
/// 3. ``ready(_:)``: every module has started; in start order.
/// 4. ``run(_:)``: the module's long-running work, from right after its
///    own start until shutdown asks it to finish (drain) or cancels it.
/// 5. ``reload(_:)``: on SIGHUP or ``ModuleHost/reload()``.
/// 6. ``stop(_:)``: in reverse start order, within a time limit, after
///    every `run` has ended; only for a module whose ``start(_:)``
///    returned.
///
/// ```swift
/// import SectionRegistry
///
/// @c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }
///
/// struct Billing: AppModule {
///     func start(_ context: ModuleContext) async throws {
///         let accounts = try context.service(AccountDirectory.self)
///         context.log("billing \(accounts.count) accounts")
///     }
/// }
/// ```
public protocol AppModule: _WrittenHooks, Sendable {
    /// What ``run(_:)`` returns: nothing (`Void`) for a module that writes
    /// it. Never named by a module: it only tells the host, at no cost,
    /// which modules have long-running work.
    associatedtype RunResult = _NoRunHook

    /// What each hook returns: nothing (`Void`) for a module that writes
    /// it. Never named by a module: they tell the host, at no cost, which
    /// hooks a module writes, and it calls no other.
    associatedtype SetUpResult = _NoHook
    associatedtype StartResult = _NoHook
    associatedtype ReadyResult = _NoHook
    associatedtype ReloadResult = _NoHook
    associatedtype StopResult = _NoHook

    /// Prepares the module: register services and event handlers here. If
    /// it throws, nothing has started and launch stops.
    @discardableResult
    nonisolated(nonsending) func setUp(_ context: ModuleContext) async throws -> SetUpResult

    /// Starts the module's work. If it throws, every module already started
    /// is stopped in reverse order and launch fails. When the task that
    /// launches is cancelled, it sees the cancellation (unless a
    /// ``HostConfiguration/startTimeLimit`` runs it in a task of its own).
    @discardableResult
    nonisolated(nonsending) func start(_ context: ModuleContext) async throws -> StartResult

    /// Every module has started. If it throws, every module is stopped and
    /// launch fails.
    @discardableResult
    nonisolated(nonsending) func ready(_ context: ModuleContext) async throws -> ReadyResult

    /// The module's long-running work: a loop that ticks, a server that
    /// accepts connections, a client's connection pool. Shaped like
    /// swift-service-lifecycle's `Service.run()`.
    ///
    /// The host calls it in a task of its own, right after this module's
    /// ``start(_:)`` returns and before the modules that come after it
    /// start: they may use what it serves (a migration in a dependent's
    /// `start` needs the database client's `run` going). With
    /// ``runReportsReady``, the modules after it start, and the host is
    /// running, only once it called ``ModuleContext/reportReady()``.
    ///
    /// **How it ends: drained.** At shutdown (or when its module is removed
    /// or its plugin unloaded) every `run` is asked to finish its work and
    /// return, in reverse start order, each once the `run`s of the modules
    /// after it have ended: a server finishes its requests in flight while
    /// the database client it uses still runs. It hears the request through
    /// ``ModuleContext/withDrainHandler(isolation:_:onDrain:)``, or, under
    /// the `ServiceLifecycle` trait, as swift-service-lifecycle's graceful
    /// shutdown: a plain `try await app.run()` (Hummingbird) or
    /// `await client.run()` (PostgresNIO) drains with nothing else written.
    /// A `run` that ends by cancellation (a loop that ticks) says so with
    /// one line, ``ModuleContext/cancelOnDrain(_:)``, and then ends at once
    /// in its turn. <doc:Lifecycle> tells the whole shutdown.
    ///
    /// A `run` that has not returned within
    /// ``HostConfiguration/drainTimeLimit`` (30 seconds by default) of the
    /// start of the drain is cancelled, and the host says which, with the
    /// fix; the shutdown is then unclean (exit status 3 under
    /// ``ModuleHost/main(configuration:)``). Then the module's ``stop(_:)`` is
    /// called. A `run` that ignores its cancellation for
    /// ``HostConfiguration/stopTimeLimit`` is reported cut off, and its
    /// module still stops.
    ///
    /// - A `run` that returns has finished its work; the module stays up
    ///   until shutdown.
    /// - A `run` that throws, other than a `CancellationError` once it was
    ///   asked to finish or cancelled, is a failure: during the launch, the
    ///   launch fails; afterwards, the host logs it, naming the module and
    ///   the error, and shuts every module down; ``ModuleHost/run()`` then
    ///   throws it and ``ModuleHost/main(configuration:)`` exits with
    ///   status 1.
    ///
    /// Modules that do not write it cost nothing: no task is made for them.
    func run(_ context: ModuleContext) async throws -> RunResult

    /// Whether ``run(_:)`` tells the host when it is ready, with
    /// ``ModuleContext/reportReady()``: then the modules after it start,
    /// and the host is running (its status, ``ModuleHost/waitUntilRunning()``,
    /// the ``ready(_:)`` hooks), only once it has. A `run` that ends before
    /// it, or has not reported within ``HostConfiguration/readinessTimeLimit``
    /// (30 seconds by default), fails the launch, naming the module; its
    /// `run` is ended before anything it uses is stopped. `false` by
    /// default; a report from a module that does not declare it is a
    /// warning naming the module.
    var runReportsReady: Bool { get }

    /// Re-reads configuration. A failure is reported and changes nothing else.
    @discardableResult
    nonisolated(nonsending) func reload(_ context: ModuleContext) async throws -> ReloadResult

    /// Stops the module's work, within ``HostConfiguration/stopTimeLimit``
    /// (10 seconds by default). It runs in a task of the host's, not
    /// cancelled when the task that runs the host is: it may await I/O or
    /// `Task.sleep` to the end. Past its limit, or when a second stop cuts
    /// the shutdown short (a second SIGTERM or SIGINT, or the cancellation
    /// of the task running ``ModuleHost/run()`` during the shutdown), it is
    /// cancelled and the host goes on without it.
    @discardableResult
    nonisolated(nonsending) func stop(_ context: ModuleContext) async throws -> StopResult
}

/// Which hooks a module writes, answered when its conformance to
/// ``AppModule`` is compiled: never named or written by a module, and left
/// out of the documentation (underscored), so that ``AppModule`` declares
/// only what a module writes.
///
/// Each hook's result type defaults to a type of its own (`_NoHook`,
/// `_NoRunHook`) that only the default implementation returns: a module
/// that writes a hook makes it `Void`. Each `_has…Hook` requirement has
/// two default witnesses, one for each case, so the answer is chosen at
/// compile time. Asking the type at run time (`RunResult.self`) looks up
/// the associated type by its mangled name, about 2,000 instructions per
/// module type the first time.
public protocol _WrittenHooks {
    var _hasRunHook: Bool { get }
    var _hasSetUpHook: Bool { get }
    var _hasStartHook: Bool { get }
    var _hasReadyHook: Bool { get }
    var _hasReloadHook: Bool { get }
    var _hasStopHook: Bool { get }
}

extension AppModule {
    public var runReportsReady: Bool { false }
}

// The hooks a module does not write: each is the witness of the
// conformances that keep its default result type, never called by the host
// (a call was an async frame; a phase whose hook no module writes now has
// no runner at all). Whether a module writes a hook is decided when its
// conformance is compiled, by the witness Swift picks: a hook the module
// writes is never taken for one it does not. One extension per hook, alike
// in shape: each constrains its own associated type, and Swift has no way
// to write the five at once.

extension AppModule where SetUpResult == _NoHook {
    public nonisolated(nonsending) func setUp(_ context: ModuleContext) async throws -> _NoHook { _NoHook() }
    public var _hasSetUpHook: Bool { false }
}

extension AppModule where StartResult == _NoHook {
    public nonisolated(nonsending) func start(_ context: ModuleContext) async throws -> _NoHook { _NoHook() }
    public var _hasStartHook: Bool { false }
}

extension AppModule where ReadyResult == _NoHook {
    public nonisolated(nonsending) func ready(_ context: ModuleContext) async throws -> _NoHook { _NoHook() }
    public var _hasReadyHook: Bool { false }
}

extension AppModule where ReloadResult == _NoHook {
    public nonisolated(nonsending) func reload(_ context: ModuleContext) async throws -> _NoHook { _NoHook() }
    public var _hasReloadHook: Bool { false }
}

extension AppModule where StopResult == _NoHook {
    public nonisolated(nonsending) func stop(_ context: ModuleContext) async throws -> _NoHook { _NoHook() }
    public var _hasStopHook: Bool { false }
}

/// What a hook returns in a module that does not write it; never named or
/// made by a module. Underscored, as `_NoRunHook` is: it exists only so
/// that the host knows, at no cost, which hooks a module writes, and is
/// left out of the documentation.
public struct _NoHook: Sendable {
    init() {}
}

extension AppModule where RunResult == _NoRunHook {
    /// No long-running work: the host never calls it.
    public func run(_ context: ModuleContext) async throws -> _NoRunHook { _NoRunHook() }

    /// No ``run(_:)`` of its own: the witness of the conformances that keep
    /// the default ``RunResult``.
    public var _hasRunHook: Bool { false }
}

/// What ``AppModule/run(_:)`` returns in a module that does not write it;
/// never named or made by a module. Underscored, as `_hasRunHook` is: it
/// exists only so that the host knows, at no cost, which modules have a
/// `run`, and is left out of the documentation.
public struct _NoRunHook: Sendable {
    init() {}
}

extension AppModule {
    /// A ``run(_:)`` of its own: the witness of every other conformance.
    public var _hasRunHook: Bool { true }

    // The hooks of its own: the witnesses of every other conformance.
    public var _hasSetUpHook: Bool { true }
    public var _hasStartHook: Bool { true }
    public var _hasReadyHook: Bool { true }
    public var _hasReloadHook: Bool { true }
    public var _hasStopHook: Bool { true }
}
