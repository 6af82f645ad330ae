// Under the `Configuration` trait: what a module's failed read of its
// configuration is reported as (Configuration.md).
#if Configuration

/// A value a module read through ``ModuleContext/config`` with one of
/// swift-configuration's `required…` methods was missing, or was not of the
/// type read: the error the module's hook fails with, in place of
/// swift-configuration's own, so that the host's report names the key as
/// each provider spells it, and where the wrong value came from:
///
/// ```
/// module 'Orders' failed in setUp: orders.database.host: no provider has it
/// (environment variables: ORDERS_DATABASE_HOST; JSON file /etc/app.json: orders.database.host): set it in one of them
/// ```
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The key read, in full: `orders.database.host`.
    public let key: String
    /// What is wrong, and where to fix it.
    public let description: String
    /// swift-configuration's own error.
    public let underlying: any Error
}
#endif
