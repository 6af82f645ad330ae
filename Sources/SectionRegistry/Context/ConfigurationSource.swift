// Under the `Configuration` trait: the one reader the host and its
// modules read their configuration from (Configuration.md).
#if Configuration
import Configuration
import ServiceLifecycle

/// The program's configuration providers (``HostConfiguration/configProviders``)
/// behind one `ConfigReader`: each module reads a scope of it, the host
/// reads its own settings under `sectionRegistry`, and every lookup that
/// failed is kept, to say which key and which providers when a hook
/// throws over it.
final class ConfigurationSource: Sendable {
    let reader: ConfigReader
    /// The providers that are swift-service-lifecycle services (a
    /// `ReloadingFileProvider`): ``ModuleHost/run()`` runs them while the
    /// modules live.
    let services: [any Service]
    let lookups: ConfigLookups

    init(configuration: HostConfiguration) {
        let providers = configuration.configProviders ?? [EnvironmentVariablesProvider(environmentVariables: configuration.environment)]
        services = providers.compactMap { $0 as? any Service }
        lookups = ConfigLookups()
        // ConfigReader takes one provider at least; no provider is a
        // configuration with no value.
        let queried = providers.isEmpty ? [InMemoryProvider(name: "no provider", values: [:])] : providers
        reader = ConfigReader(providers: queried, accessReporter: lookups)
    }

    /// The reader of module `name`: the configuration under its name in
    /// lower case, so that `database.host` of `Orders` is `orders.database.host`.
    func reader(of name: String) -> ConfigReader {
        reader.scoped(to: ConfigKey([name.lowercased()]))
    }

    /// `error`, or, when it is swift-configuration's error for a lookup
    /// that failed, a ``ConfigurationError`` that names the key as each
    /// provider spells it.
    func explained(_ error: any Error) -> any Error {
        guard !(error is ConfigurationError), let (key, problem) = lookups.problem(explaining: String(describing: error)) else { return error }
        return ConfigurationError(key: key, description: problem, underlying: error)
    }

    // MARK: The host's settings

    /// The host's settings: `configuration` with those the configuration
    /// has under `sectionRegistry` (they win over the program's own), and
    /// what is wrong with any of them.
    func settings(over configuration: HostConfiguration) -> (HostConfiguration, problems: [String]) {
        let settings = reader.scoped(to: ConfigKey([Self.settingsScope]))
        var configuration = configuration
        var problems: [String] = []
        func checked<Value>(_ key: String, _ read: (String) -> Value?) -> Value? {
            let value = read(key)
            if let problem = lookups.problem(of: "\(Self.settingsScope).\(key)") { problems.append(problem) }
            return value
        }
        func seconds(_ key: String) -> Duration? {
            checked(key) { settings.double(forKey: ConfigKey([$0])) }.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
        }
        // A list in a file, or one string of names separated by commas
        // (the environment's spelling) anywhere.
        let disabled = settings.stringArray(forKey: "disable")
            ?? checked("disable") { settings.string(forKey: ConfigKey([$0])) }.map { $0.split(separator: ",").map(String.init) }
        if let names = disabled {
            configuration.disabledModules.formUnion(names.map { $0.filter { !$0.isWhitespace } }.filter { !$0.isEmpty })
        }
        if let name = checked("logLevel", { settings.string(forKey: ConfigKey([$0])) }) {
            if let level = LogLevel(rawValue: name.lowercased()) {
                configuration.log.logLevel = level
            } else {
                problems.append("\(Self.settingsScope).logLevel is \"\(name)\", not one of trace, debug, info, notice, warning, error, critical")
            }
        }
        if checked("logTimestamps", { settings.bool(forKey: ConfigKey([$0])) }) == true {
            if configuration.log.writesStandardError {
                configuration.log = .standardError(logLevel: configuration.log.logLevel, timestamps: true)
            } else {
                problems.append("\(Self.settingsScope).logTimestamps is true, but HostConfiguration.log is a handler of the program's own: "
                    + "stamp its lines there, or use HostLogHandler.standardError")
            }
        }
        if let limit = seconds("stopTimeLimit") { configuration.stopTimeLimit = limit }
        if let limit = seconds("drainTimeLimit") { configuration.drainTimeLimit = limit }
        if let delay = seconds("lameDuckDelay") { configuration.lameDuckDelay = delay }
        if let limit = seconds("reloadTimeLimit") { configuration.reloadTimeLimit = limit }
        if let limit = seconds("startTimeLimit") { configuration.startTimeLimit = limit }
        if let limit = seconds("readinessTimeLimit") { configuration.readinessTimeLimit = limit }
        return (configuration, problems)
    }

    /// The scope of the host's own settings: `sectionRegistry.logLevel` is
    /// `SECTION_REGISTRY_LOG_LEVEL` in the environment, and
    /// `--section-registry-log-level` on the command line.
    static let settingsScope = "sectionRegistry"
}

/// Keeps each lookup that failed (a required value no provider has, a value
/// not of the type read), by key: what explains a module's failed read.
/// A value not of its type that a read with a default passed over is
/// logged, once a key: the module goes on with its default, and the
/// operator learns why.
final class ConfigLookups: AccessReporter, Sendable {
    private let failed = Locked<[String: AccessEvent]>([:])
    private let warned = Locked<Set<String>>([])
    /// Where the warnings go: the host's log, once the host exists.
    let warn = Locked<(@Sendable (String) -> Void)?>(nil)

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.description
        // A provider that has the key with a value not of the type read
        // fails its own lookup; swift-configuration converts others' values.
        let providerFailed = event.providerResults.contains { if case .failure = $0.result { true } else { false } }
        switch event.result {
        case .failure:
            failed.withLock { $0[key] = event }
        case .success where event.conversionError != nil || providerFailed:
            failed.withLock { $0[key] = event }
            // The host's own settings fail its launch instead.
            guard !key.hasPrefix(ConfigurationSource.settingsScope + "."), warned.withLock({ $0.insert(key).inserted }) else { return }
            warn.withLock { $0 }?("\(Self.problem(event)); read as its default")
        case .success:
            failed.withLock { $0[key] = nil }
        }
    }

    /// What is wrong with the last lookup of `key`, if it failed.
    func problem(of key: String) -> String? {
        failed.withLock { $0[key] }.map(Self.problem)
    }

    /// The failed lookup `text` (swift-configuration's error message) is
    /// about, and what is wrong with it. swift-configuration's error type
    /// is not public: its message quotes the key.
    func problem(explaining text: String) -> (key: String, problem: String)? {
        let events = failed.withLock { $0 }
        for (key, event) in events {
            let quoted = text.contains("key: \(key).") || text.contains("key '\(key)'")
                || event.providerResults.contains { if case .failure(let error) = $0.result { "\(error)" == text } else { false } }
            if quoted { return (key, Self.problem(event)) }
        }
        return nil
    }

    /// `orders.port is "abc" in environment variables (ORDERS_PORT), not an int`,
    /// or `orders.host: no provider has it (environment variables: ORDERS_HOST): set it in one of them`.
    static func problem(_ event: AccessEvent) -> String {
        let key = event.metadata.key.description
        let type = article(event.metadata.valueType.rawValue)
        for provider in event.providerResults {
            switch provider.result {
            case .success(let lookup):
                guard let value = lookup.value else { continue }
                let shown = value.isSecret ? "a secret" : "\"\(value.content)\""
                return "\(key) is \(shown) in \(provider.providerName) (\(lookup.encodedKey)), not \(type): fix it there"
            case .failure(let error):
                return "\(key) in \(provider.providerName) is not \(type) (\(error)): fix it there"
            }
        }
        let places = event.providerResults.map { provider in
            if case .success(let lookup) = provider.result { "\(provider.providerName): \(lookup.encodedKey)" } else { provider.providerName }
        }
        return "\(key): no provider has it (\(places.joined(separator: "; "))): set it in one of them"
    }

    private static func article(_ type: String) -> String {
        ("aeiou".contains(type.first ?? "x") ? "an " : "a ") + type
    }
}
#endif
