// swift-tools-version: 6.3
// The Vapor example: a Vapor 4 server made of four modules, each a Swift
// target and a one-line C registration target. Its program, vapor-server,
// is `await ModuleHost.main(configuration:)`, with the lame-duck delay from
// LAME_DUCK_MS.
//
//     swift build --package-path Sources/Example/VaporServer -c release
//     PORT=8080 Sources/Example/VaporServer/.build/release/vapor-server
//
// SectionRegistry's Logging trait is on: `context.logger` is the Logger
// Vapor logs to, so its lines go to the host's log, a line for each request
// at info among them. The ServiceLifecycle
// trait is not needed: Vapor hears no graceful shutdown, the HTTP module's
// run hears the drain with `context.withDrainHandler`.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let vapor = Target.Dependency.product(name: "Vapor", package: "vapor")

/// A module: a Swift target, and a C target whose one `APP_MODULE` line
/// registers it.
func module(_ name: String, _ dependencies: [Target.Dependency]) -> [Target] {
    [
        .target(name: name, dependencies: [sectionRegistry, .target(name: "\(name)Registration")] + dependencies),
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "VaporServer",
    products: [
        .executable(name: "vapor-server", targets: ["Server"]),
        // The same modules, but an HTTP module that runs Vapor's
        // app.execute(), which takes SIGTERM over: the mistake Mistakes.md
        // names, for scripts/vapor-test.sh's check (e).
        .executable(name: "vapor-execute-server", targets: ["ExecuteServer"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../..", traits: ["Logging"]),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        // NIOCore's TimeAmount, for Vapor's shutdownTimeout (Vapor does not
        // re-export it).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Links the modules and imports none of them.
        .executableTarget(name: "Server", dependencies: [sectionRegistry, "Routes", "Greetings", "Jobs", "HTTP"]),
        .executableTarget(name: "ExecuteServer", dependencies: [sectionRegistry, "Routes", "Greetings", "Jobs", "ExecuteHTTP"]),
    ]
        + module("Routes", [vapor])
        + module("Greetings", ["Routes", vapor])
        + module("Jobs", ["Routes", vapor])
        + module("HTTP", ["Routes", vapor, .product(name: "NIOCore", package: "swift-nio")])
        + module("ExecuteHTTP", ["Routes", vapor]),
    swiftLanguageModes: [.v6]
)
