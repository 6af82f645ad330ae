// swift-tools-version: 6.3
// The server example: a Hummingbird 2 service that keeps notes in
// PostgreSQL, made of five modules, each a Swift target and a one-line C
// registration target. Its program, notes-server, is `ModuleHost.main(configuration:)`;
// each module reads its settings through `context.config` (the command
// line, the environment, and a JSON file watched for changes), the host
// records spans and metrics, and GET /metrics serves them (Prometheus).
//
//     swift build --package-path Sources/Example/Server -c release
//     HTTP_PORT=8080 DATABASE_USER=notes DATABASE_PASSWORD=notes .build/release/notes-server
//
// SectionRegistry's traits: Hummingbird (the HTTP module's
// `context.serve(app)`: a deploy that loses no accepted request; it turns
// on ServiceLifecycle, so a run written plainly, `await client.run()`,
// drains on the host's graceful shutdown), Logging (`context.logger`
// for Hummingbird and PostgresClient, whose lines go to the host's log),
// Configuration (`context.config`), Tracing (a span for each step of a
// deploy) and Metrics (the host's counters and timers).
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let postgres = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")
let configuration = Target.Dependency.product(name: "Configuration", package: "swift-configuration")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")

/// A module: a Swift target, and a C target whose one `APP_MODULE` line
/// registers it.
func module(_ name: String, _ dependencies: [Target.Dependency]) -> [Target] {
    [
        .target(name: name, dependencies: [sectionRegistry, .target(name: "\(name)Registration")] + dependencies),
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "NotesServer",
    products: [
        .executable(name: "notes-server", targets: ["Server"]),
        // The supervisor recipe: the host as one service of a ServiceGroup.
        .executable(name: "notes-supervised", targets: ["Supervised"]),
        // The same routes without modules, for scripts/server-test.sh's
        // comparison.
        .executable(name: "notes-by-hand", targets: ["ByHand"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../..", traits: ["Hummingbird", "Logging", "Configuration", "Tracing", "Metrics"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "Reloading", "CommandLineArguments"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // Links the modules and imports none of them.
        .executableTarget(name: "Server", dependencies: [
            sectionRegistry, "Routing", "Database", "Notes", "HTTP", "Telemetry", configuration, metrics, prometheus,
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .executableTarget(name: "Supervised", dependencies: [
            sectionRegistry, "Routing", "Database", "Notes", "HTTP", hummingbird, postgres,
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "ByHand", dependencies: ["NotesRoutes", hummingbird, postgres, .product(name: "Logging", package: "swift-log")]),
        // The notes routes, for the Notes module and for notes-by-hand.
        .target(name: "NotesRoutes", dependencies: [hummingbird, postgres]),
    ]
        + module("Routing", [hummingbird])
        + module("Database", [postgres, configuration])
        + module("Notes", ["Routing", "NotesRoutes", postgres, configuration])
        + module("HTTP", ["Routing", hummingbird, configuration])
        + module("Telemetry", ["Routing", hummingbird, metrics, prometheus])
        // The modules' own tests: SectionRegistryTesting's test host, and
        // HummingbirdTesting's clients beside it.
        + [
            .testTarget(name: "ServerTests", dependencies: [
                "Routing", "Database", "Notes", "HTTP", hummingbird, configuration,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SectionRegistryTesting", package: "SectionRegistry"),
            ]),
        ],
    swiftLanguageModes: [.v6]
)
