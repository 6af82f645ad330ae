// swift-configuration, under the `Configuration` trait: the configuration a
// module reads. The reader is Context/ConfigurationSource.swift; run()'s
// watch, Process/ModuleHost+Configuration.swift.
#if Configuration
import Configuration

extension ModuleContext {
    /// This module's configuration: the host's (``HostConfiguration/configProviders``,
    /// the environment by default) under the module's name in lower case.
    /// For module `Orders`:
    ///
    /// ```swift
    /// func setUp(_ context: ModuleContext) async throws {
    ///     let host = try context.config.requiredString(forKey: "database.host")   // orders.database.host
    ///     let port = context.config.int(forKey: "database.port", default: 5432)
    /// }
    /// ```
    ///
    /// In the environment those are `ORDERS_DATABASE_HOST` and
    /// `ORDERS_DATABASE_PORT`; on the command line (a
    /// `CommandLineArgumentsProvider`), `--orders-database-host`.
    ///
    /// A required value that is missing, or a value not of the type read,
    /// fails the hook with a ``ConfigurationError`` that names the key as
    /// each provider spells it; a value not of its type that a read with a
    /// default passes over is logged once, as a warning. Read in
    /// ``AppModule/reload(_:)`` again for a changed value: a change a
    /// reloading provider finds calls it.
    public var config: ConfigReader { host.config.reader(of: moduleName) }
}
#endif
