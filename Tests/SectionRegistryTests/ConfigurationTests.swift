#if Configuration
import Configuration
import Synchronization
import SectionRegistry
import SectionRegistryTesting
import Testing

/// Modules' configuration and the host's settings under the `Configuration`
/// trait (Configuration.md), with swift-configuration's own providers: the
/// environment, the command line, and in-memory ones.
@Suite struct ConfigurationTests {
    /// Reads `database.host` (required) and `database.port` (5432 by
    /// default) in setUp, and again at each reload.
    struct Orders: AppModule {
        let seen: Journal
        func setUp(_ context: ModuleContext) async throws {
            let host = try context.config.requiredString(forKey: "database.host")
            let port = try context.config.requiredInt(forKey: "database.port")
            seen.append("setUp \(host):\(port)")
        }
        func reload(_ context: ModuleContext) async throws {
            seen.append("reload \(try context.config.requiredString(forKey: "database.host"))")
        }
    }

    /// What the modules saw, in order.
    final class Journal: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    static func orders(_ seen: Journal) -> ModuleDescriptor {
        ModuleDescriptor(name: "Orders") { Orders(seen: seen) }
    }

    static func quiet(_ configuration: inout HostConfiguration) {
        configuration.log = .standardError(logLevel: .critical)
    }

    /// A log that keeps its lines, `LEVEL message`.
    static func recorded(_ lines: Journal, _ configuration: inout HostConfiguration) {
        configuration.log = HostLogHandler(logLevel: .info) { level, message, _ in lines.append("\(level.rawValue.uppercased()) \(message)") }
    }

    /// Reads `database.port` with a default, and nothing required.
    struct Lenient: AppModule {
        let seen: Journal
        func setUp(_ context: ModuleContext) async throws {
            seen.append("port \(context.config.int(forKey: "database.port", default: 5432))")
        }
    }

    @Test func aModuleReadsTheConfigurationUnderItsNameFromTheEnvironmentByDefault() async throws {
        let seen = Journal()
        try await withTestHost([Self.orders(seen)], configuration: {
            Self.quiet(&$0)
            $0.environment = ["ORDERS_DATABASE_HOST": "db.internal", "ORDERS_DATABASE_PORT": "6543", "DATABASE_HOST": "not this one"]
        }) { test in
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        #expect(seen.all == ["setUp db.internal:6543"])
    }

    @Test func aMissingRequiredValueFailsSetUpNamingTheModuleTheKeyAndEachProvider() async throws {
        var configuration = HostConfiguration()
        Self.quiet(&configuration)
        configuration.configProviders = [
            EnvironmentVariablesProvider(environmentVariables: ["ORDERS_DATABASE_PORT": "6543"]),
            InMemoryProvider(name: "defaults", values: [:]),
        ]
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(Journal())]), configuration: configuration)
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .moduleFailed)
        #expect(error?.underlying is ConfigurationError)
        #expect(error?.description == "SectionRegistry: module 'Orders' failed in setUp: orders.database.host: no provider has it "
            + "(EnvironmentVariablesProvider: ORDERS_DATABASE_HOST; InMemoryProvider[defaults]: orders.database.host): set it in one of them "
            + "(no module had started)")
        ArticleQuotes.expectQuoted(in: "Configuration.md", startingWith: "module 'Orders' failed in setUp", printed: error?.description ?? "")
    }

    @Test func aValueNotOfItsTypeFailsSetUpNamingWhereItCameFrom() async throws {
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(Journal())]), configuration: {
            var configuration = HostConfiguration()
            Self.quiet(&configuration)
            configuration.environment = ["ORDERS_DATABASE_HOST": "db", "ORDERS_DATABASE_PORT": "fifty"]
            return configuration
        }())
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        let explained = try #require(error?.underlying as? ConfigurationError)
        #expect(explained.key == "orders.database.port")
        #expect(explained.description == "orders.database.port in EnvironmentVariablesProvider is not an int "
            + "(Config value for key 'ORDERS_DATABASE_PORT' failed to convert to type int.): fix it there")
    }

    @Test func aValueNotOfItsTypeThatAReadWithADefaultPassesOverIsLoggedOnce() async throws {
        let seen = Journal(), lines = Journal()
        try await withTestHost([
            ModuleDescriptor(name: "Orders") { Lenient(seen: seen) },
        ], configuration: {
            Self.recorded(lines, &$0)
            $0.environment = ["ORDERS_DATABASE_PORT": "fifty"]
        }) { test in
            await test.host.reload()
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        #expect(seen.all == ["port 5432"])
        let warnings = lines.all.filter { $0.hasPrefix("WARNING") }
        #expect(warnings.count == 1, "once a key: \(warnings)")
        ArticleQuotes.expectQuoted(in: "Configuration.md", startingWith: "configuration: orders.database.port", printed: warnings.joined(separator: "\n"))
    }

    @Test func aChangeOfTheConfigurationCallsTheReloadHooks() async throws {
        let seen = Journal()
        let provider = MutableInMemoryProvider(initialValues: ["orders.database.host": "blue", "orders.database.port": 5432])
        var configuration = HostConfiguration()
        Self.quiet(&configuration)
        configuration.servesSignals = false
        configuration.configProviders = [provider]
        let lines = Journal()
        Self.recorded(lines, &configuration)
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(seen)]), configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await host.run() }
            #expect(await host.waitUntilRunning())
            provider.setValue("green", forKey: "orders.database.host")
            while !seen.all.contains("reload green") { try await Task.sleep(for: .milliseconds(5)) }
            await host.terminate()
            try await group.waitForAll()
        }
        #expect(seen.all == ["setUp blue:5432", "reload green"])
        ArticleQuotes.expectQuoted(in: "Configuration.md", startingWith: "the configuration changed", printed: lines.all.joined(separator: "\n"))
    }

    @Test func theHostsSettingsComeFromTheSameConfigurationCommandLineFirst() async throws {
        var configuration = HostConfiguration()
        configuration.configProviders = [
            CommandLineArgumentsProvider(arguments: ["app", "--section-registry-lame-duck-delay", "0.25", "--section-registry-disable", "Billing"]),
            EnvironmentVariablesProvider(environmentVariables: [
                "SECTION_REGISTRY_LAME_DUCK_DELAY": "9", "SECTION_REGISTRY_DRAIN_TIME_LIMIT": "2.5", "SECTION_REGISTRY_LOG_LEVEL": "debug",
            ]),
        ]
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(Journal())]), configuration: configuration)
        #expect(host.configuration.lameDuckDelay == .milliseconds(250))
        #expect(host.configuration.drainTimeLimit == .milliseconds(2500))
        #expect(host.configuration.log.logLevel == .debug)
        #expect(host.configuration.disabledModules == ["Billing"])
    }

    @Test func modulesAreDisabledByAListOrByNamesSeparatedByCommas() async throws {
        for value: ConfigValue in [.init(.stringArray(["Billing", "Search"]), isSecret: false), .init(.string("Billing, Search"), isSecret: false)] {
            var configuration = HostConfiguration()
            configuration.configProviders = [InMemoryProvider(values: ["sectionRegistry.disable": value])]
            let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(Journal())]), configuration: configuration)
            #expect(host.configuration.disabledModules == ["Billing", "Search"], "\(value)")
        }
    }

    @Test func aHostSettingNotOfItsTypeFailsTheLaunchNamingTheKeyAndProvider() async throws {
        var configuration = HostConfiguration()
        Self.quiet(&configuration)
        configuration.environment = ["SECTION_REGISTRY_DRAIN_TIME_LIMIT": "soon"]
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [Self.orders(Journal())]), configuration: configuration)
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .invalidSetting)
        #expect(error?.description.contains("sectionRegistry.drainTimeLimit") == true, "\(String(describing: error))")
        #expect(error?.description.contains("SECTION_REGISTRY_DRAIN_TIME_LIMIT") == true, "\(String(describing: error))")
        ArticleQuotes.expectQuoted(in: "Configuration.md", startingWith: "the host's configuration", printed: error?.description ?? "")
    }
}
#endif
