/// A feature of the app that registers itself by being linked.
///
/// A module is created by its factory, the `@c(app_module_NAME)` function its
/// `APP_MODULE(NAME)` record points to, and is otherwise an ordinary value or
/// object of the feature's own target:
///
/// ```swift
/// import SectionRegistry
///
/// struct Billing: AppModule {
///     func setUp() async throws { /* open the ledger */ }
/// }
///
/// @c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }
/// ```
public protocol AppModule: Sendable {
    /// Prepares the module. The host calls it once per instance, in the
    /// registry's declared order (see ``ModuleRegistry/modules``).
    ///
    /// The default does nothing.
    func setUp() async throws
}

extension AppModule {
    public func setUp() async throws {}
}
