// swift-tools-version: 6.3
import CompilerPluginSupport
import PackageDescription

/// One feature of the example app: a Swift target with the module, and the
/// tiny C target whose one `APP_MODULE` line registers it.
func exampleFeature(_ name: String) -> [Target] {
    [
        .target(
            name: "Example\(name)",
            dependencies: ["SectionRegistry", "ExampleContracts", .target(name: "Example\(name)Registration")],
            path: "Sources/Example/\(name)"
        ),
        .target(
            name: "Example\(name)Registration",
            dependencies: ["CSectionRegistry"],
            path: "Sources/Example/\(name)Registration",
            publicHeadersPath: "."
        ),
    ]
}

let exampleFeatures = ["Accounts", "Billing", "Search", "Audit"]

/// @AppModule (the `Macros` trait): the macro that writes a module's record
/// from Swift, and its expansion tests. Without the trait their sources
/// compile to nothing and nothing fetches swift-syntax.
let macroTargets: [Target] = [
    .macro(
        name: "SectionRegistryMacros",
        dependencies: [
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
        ],
        path: "Sources/Macros"
    ),
    .testTarget(
        name: "SectionRegistryMacrosTests",
        dependencies: [
            .target(name: "SectionRegistryMacros", condition: .when(traits: ["Macros"])),
            .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax", condition: .when(traits: ["Macros"])),
        ]
    ),
]

let package = Package(
    name: "SectionRegistry",
    products: [
        .library(name: "SectionRegistry", targets: ["SectionRegistry"]),
        // For programs that load plugins: the program and every plugin link
        // this one shared copy, so their Swift types are the same types. Their
        // registration targets take the C side, statically, from
        // SectionRegistryRecords: every image needs its own section bounds.
        .library(name: "SectionRegistryDynamic", type: .dynamic, targets: ["SectionRegistry"]),
        .library(name: "SectionRegistryRecords", targets: ["CSectionRegistry"]),
        // For a package's own tests of its modules: withTestHost, from
        // module values, without linker records or signals.
        .library(name: "SectionRegistryTesting", targets: ["SectionRegistryTesting"]),
        .executable(name: "registry-example", targets: ["ExampleApp"]),
        .executable(name: "section-registry", targets: ["section-registry"]),
        // `swift package check-modules --product App`, in any package that
        // depends on this one.
        .plugin(name: "CheckModules", targets: ["CheckModules"]),
    ],
    // All off by default: a package that does not enable them resolves no
    // package at all (a dependency used only under a disabled trait is not
    // fetched), so "packages: none" holds for everyone else.
    traits: [
        .trait(name: "ServiceLifecycle", description: "ModuleHost is a swift-service-lifecycle Service; inside a module's run, gracefulShutdown() and its kin see the host's drain request."),
        .trait(name: "Logging", description: "ModuleContext.logger, a swift-log Logger for the libraries a module drives; the host can log through a swift-log Logger."),
        .trait(name: "Macros", description: "@AppModule(...) registers a module from Swift: one target per feature, no C target. Builds swift-syntax."),
        .trait(name: "Hummingbird", description: "ModuleContext.serve(_:) runs a Hummingbird 2 Application as a module's run for a deploy that loses no accepted request: readiness reported once it listens, intake stopped at the host's intake step (Linux), Connection: close once the shutdown began, a graceful shutdown at the module's drain.", enabledTraits: ["ServiceLifecycle"]),
        .trait(name: "Tracing", description: "swift-distributed-tracing spans for the host's work: the launch, each hook a module writes (its run from begin to end), the shutdown and each of its steps, with the module's name, level and outcome; a module's own spans nest under its hook's. HostConfiguration.tracer, ModuleContext.tracer."),
        .trait(name: "Metrics", description: "swift-metrics for the host's work: modules running (gauge), each hook's and each drain's duration per module (timers), shutdowns by stop reason and hooks that did not end cleanly (counters). HostConfiguration.metricsFactory."),
        .trait(name: "Configuration", description: "swift-configuration for modules and the host: ModuleContext.config, a ConfigReader scoped to the module's name, from the providers in HostConfiguration.configProviders (the environment by default); the host's own settings under sectionRegistry; a reloading provider runs for the host's life and its changes call the modules' reload hooks.", enabledTraits: ["ServiceLifecycle"]),
        .trait(name: "ArgumentParser", description: "A command-line tool made of modules: the linked features offer swift-argument-parser subcommands, and ModuleHost.main(command:) parses, runs and exits with ArgumentParser's statuses after stopping the modules."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "Reloading", "CommandLineArguments"]),
    ],
    targets: [
        // The record ABI, the APP_MODULE macro and the section anchor.
        .target(
            name: "CSectionRegistry",
            path: "CSectionRegistry",
            exclude: ["include/RecordABI.md"]
        ),
        // The core: the record ABI, discovery, the registry, its rules and
        // the start plan. No actors, no Foundation: what the inspector and
        // the fuzzers need.
        .target(
            name: "ModuleRecords",
            dependencies: ["CSectionRegistry"]
        ),
        // The host: modules, lifecycle, events, services, plugins. It
        // re-exports ModuleRecords.
        .target(
            name: "SectionRegistry",
            dependencies: [
                "ModuleRecords", "CSectionRegistry",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
                // testGracefulShutdown: the public way to give a module's
                // run a graceful shutdown of its own (Integrations/ServiceLifecycle.swift).
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
                // ServiceGroup's tests need a Logger too.
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging", "ServiceLifecycle"])),
                .target(name: "SectionRegistryMacros", condition: .when(traits: ["Macros"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["ArgumentParser"])),
                // ModuleContext.serve(_:): the Application, and the listener's socket options.
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ]
        ),
        // A test host for a package's own modules (the testing article).
        .target(
            name: "SectionRegistryTesting",
            dependencies: ["SectionRegistry"]
        ),
        // The example app: it depends on its features to link them, and
        // imports none of them: there is no central list.
        .executableTarget(
            name: "ExampleApp",
            dependencies: ["SectionRegistry", "ExampleContracts"] + exampleFeatures.map { .target(name: "Example\($0)") }
                + [.target(name: "ExampleLedger", condition: .when(traits: ["Macros"]))],
            path: "Sources/Example/App"
        ),
        // A feature registered from Swift with @AppModule: one target. Linked
        // only with the Macros trait; without it the file compiles to nothing.
        .target(
            name: "ExampleLedger",
            dependencies: ["SectionRegistry", "ExampleContracts"],
            path: "Sources/Example/Ledger"
        ),
        .target(
            name: "ExampleContracts",
            dependencies: ["SectionRegistry"],
            path: "Sources/Example/Contracts"
        ),
        // Tooling: the ELF inspector.
        .target(
            name: "ELFInspection",
            dependencies: ["ModuleRecords", "CSectionRegistry"],
            path: "Sources/Tooling/ELFInspection"
        ),
        // Named as its product: SwiftPM gives packages that depend on this
        // one a product for each executable target a plugin uses, named
        // after the target, so any other name shows up as a second product.
        .executableTarget(
            name: "section-registry",
            dependencies: ["ELFInspection", "ModuleRecords"],
            path: "Sources/Tooling/Inspector"
        ),
        // Builds a product and runs `section-registry check` on it.
        .plugin(
            name: "CheckModules",
            capability: .command(
                intent: .custom(verb: "check-modules", description: "Build a product and check its module records with section-registry check"),
                permissions: []
            ),
            dependencies: ["section-registry"]
        ),
        // libFuzzer harnesses (scripts/fuzz.sh).
        .executableTarget(
            name: "ELFFuzzer",
            dependencies: ["ELFInspection"],
            path: "Sources/Tooling/Fuzzing/ELFFuzzer"
        ),
        .executableTarget(
            name: "RecordFuzzer",
            dependencies: ["ModuleRecords"],
            path: "Sources/Tooling/Fuzzing/RecordFuzzer"
        ),
    ] + macroTargets + exampleFeatures.flatMap(exampleFeature) + [
        .target(
            name: "TestModuleRecords",
            dependencies: ["CSectionRegistry"],
            path: "Tests/TestModuleRecords",
            publicHeadersPath: "."
        ),
        .testTarget(
            name: "SectionRegistryTests",
            dependencies: [
                "SectionRegistry", "ModuleRecords", "CSectionRegistry", "TestModuleRecords", "ELFInspection", "SectionRegistryTesting",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
                // ServiceGroup's tests need a Logger too.
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging", "ServiceLifecycle"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["ArgumentParser"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ]
        ),
        // SectionRegistryTesting's tests, and the testing article's example
        // module and its test, quoted whole.
        .testTarget(
            name: "SectionRegistryTestingTests",
            dependencies: ["SectionRegistryTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
