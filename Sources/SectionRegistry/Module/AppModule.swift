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
/// 4. ``reload(_:)``: on SIGHUP or ``ModuleHost/reload()``.
/// 5. ``stop(_:)``: in reverse start order, within a time limit; only
///    for a module whose ``start(_:)`` succeeded.
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

    /// Re-reads configuration. A failure is reported and changes nothing else.
    nonisolated(nonsending) func reload(_ context: ModuleContext) async throws

    /// Stops the module's work, within ``HostConfiguration/stopTimeLimit``.
    /// It runs in a task of its own, not cancelled when the task that
    /// runs the host is: it may await I/O or `Task.sleep` to the end.
    nonisolated(nonsending) func stop(_ context: ModuleContext) async throws
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
