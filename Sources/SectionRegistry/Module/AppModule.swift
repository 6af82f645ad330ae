/// A feature of the app that registers itself by being linked.
///
/// A module is created by its factory, the `@c(app_module_NAME)` function its
/// `APP_MODULE(NAME)` record points to. A ``ModuleHost`` then takes it
/// through its hooks, each optional:
///
/// 1. ``setUp(_:)``: register services and event handlers; in start order.
/// 2. ``start(_:)``: begin work; after the modules it comes after have
///    started, alongside others if its record says it may.
/// 3. ``ready(_:)``: every module has started; in start order.
/// 4. ``run(_:)``: the module's long-running work, from when every module
///    is ready until shutdown cancels it.
/// 5. ``reload(_:)``: on SIGHUP or ``ModuleHost/reload()``.
/// 6. ``stop(_:)``: in reverse start order, within a time limit, after
///    every `run` has ended; only for a module whose ``start(_:)``
///    succeeded.
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
public protocol AppModule: Sendable {
    /// What ``run(_:)`` returns: nothing (`Void`) for a module that writes
    /// it. Never named by a module: it only tells the host, at no cost,
    /// which modules have long-running work.
    associatedtype RunResult = NoRunHook

    /// Prepares the module: register services and event handlers here. If
    /// it throws, nothing has started and launch stops.
    nonisolated(nonsending) func setUp(_ context: ModuleContext) async throws

    /// Starts the module's work. If it throws, every module already started
    /// is stopped in reverse order and launch fails. When the task that
    /// launches is cancelled, it sees the cancellation (unless a
    /// ``HostConfiguration/startTimeLimit`` runs it in a task of its own).
    nonisolated(nonsending) func start(_ context: ModuleContext) async throws

    /// Every module has started. If it throws, every module is stopped and
    /// launch fails.
    nonisolated(nonsending) func ready(_ context: ModuleContext) async throws

    /// The module's long-running work: a loop that ticks, a server that
    /// accepts connections. Shaped like swift-service-lifecycle's
    /// `Service.run()`: run until the task is cancelled.
    ///
    /// The host calls it once every module is ready, in a task of its own
    /// per module that has one, and cancels that task at shutdown
    /// (``ModuleHost/terminate()``, SIGTERM or SIGINT, the cancellation of
    /// the task running ``ModuleHost/run()``) or when the module is removed
    /// or its plugin unloaded; the module's ``stop(_:)`` is called once
    /// `run` has returned, or after ``HostConfiguration/stopTimeLimit`` if
    /// it ignores the cancellation (then reported as cut off). So a loop of
    /// `try await Task.sleep(for:)` ends by itself.
    ///
    /// - A `run` that returns has finished its work; the module stays up
    ///   until shutdown.
    /// - A `run` that throws while not cancelled is a failure: the host
    ///   logs it, naming the module and the error, and shuts every module
    ///   down gracefully; ``ModuleHost/run()`` then throws it and
    ///   ``ModuleHost/main(configuration:)`` exits with status 1.
    ///
    /// Modules that do not write it cost nothing: no task is made for them.
    func run(_ context: ModuleContext) async throws -> RunResult

    /// Re-reads configuration. A failure is reported and changes nothing else.
    nonisolated(nonsending) func reload(_ context: ModuleContext) async throws

    /// Stops the module's work, within ``HostConfiguration/stopTimeLimit``
    /// (10 seconds by default). It runs in a task of the host's, not
    /// cancelled when the task that runs the host is: it may await I/O or
    /// `Task.sleep` to the end. Past its limit, or when a second SIGTERM or
    /// SIGINT cuts shutdown short, it is cancelled and the host goes on
    /// without it.
    nonisolated(nonsending) func stop(_ context: ModuleContext) async throws

    /// Whether the module writes ``run(_:)``: not to be written by a module.
    ///
    /// A requirement with two default witnesses, so that the answer is chosen
    /// when the conformance is compiled. Asking the type at run time
    /// (`RunResult.self`) looks up the associated type by its mangled name,
    /// about 2,000 instructions per module type the first time.
    var _hasRunHook: Bool { get }
}

/// The hooks a module does not write do nothing, where they are called: the
/// requirements are `nonisolated(nonsending)`, so the host calls them on its
/// own executor, with no hop. A hook a module writes runs wherever Swift
/// runs its nonisolated async functions (the global executor, unless the
/// module opts in to `nonisolated(nonsending)` itself).
extension AppModule {
    public nonisolated(nonsending) func setUp(_ context: ModuleContext) async throws {}
    public nonisolated(nonsending) func start(_ context: ModuleContext) async throws {}
    public nonisolated(nonsending) func ready(_ context: ModuleContext) async throws {}
    public nonisolated(nonsending) func reload(_ context: ModuleContext) async throws {}
    public nonisolated(nonsending) func stop(_ context: ModuleContext) async throws {}
}

extension AppModule where RunResult == NoRunHook {
    /// No long-running work: the host never calls it.
    public func run(_ context: ModuleContext) async throws -> NoRunHook { NoRunHook() }

    /// No ``run(_:)`` of its own: the witness of the conformances that keep
    /// the default ``RunResult``.
    public var _hasRunHook: Bool { false }
}

/// What ``AppModule/run(_:)`` returns in a module that does not write it;
/// never made by a module.
public struct NoRunHook: Sendable {
    init() {}
}

extension AppModule {
    /// A ``run(_:)`` of its own: the witness of every other conformance.
    public var _hasRunHook: Bool { true }

    /// Calls ``run(_:)``, dropping what it returns.
    func runHook(_ context: ModuleContext) async throws {
        _ = try await run(context)
    }
}
