// swift-tools-version: 6.3
// The command-line example: `toolbox`, a git-style tool whose subcommands
// come from the feature modules linked into it, with swift-argument-parser.
// Its main is `ModuleHost.main { host in ... }`, the one-shot entry point.
//
//     swift build --package-path Sources/Example/Toolbox -c release
//     .build/release/toolbox --help
//     .build/release/toolbox greet --name Ada
//     SECTION_REGISTRY_DISABLE=Sum .build/release/toolbox --help
//
// Each feature is three targets: its command (plain ArgumentParser code), a
// module that offers the command to whatever program links it, and the
// module's one-line C registration. `toolbox-plain` is the same tool with
// ArgumentParser alone (its commands listed by hand): the benchmark's
// baseline (scripts/toolbox-test.sh --instructions).
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

/// A feature: its command, its module and the module's registration.
func feature(_ name: String) -> [Target] {
    [
        .target(name: "\(name)Command", dependencies: [argumentParser]),
        .target(name: name, dependencies: [sectionRegistry, "ToolboxKit", .target(name: "\(name)Command"), .target(name: "\(name)Registration")]),
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "Toolbox",
    products: [
        .executable(name: "toolbox", targets: ["Toolbox"]),
        .executable(name: "toolbox-plain", targets: ["ToolboxPlain"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // Links the features; names none of their commands.
        .executableTarget(name: "Toolbox", dependencies: [sectionRegistry, argumentParser, "ToolboxKit", "Greet", "Sum", "Env"]),
        .executableTarget(name: "ToolboxPlain", dependencies: [argumentParser, "GreetCommand", "SumCommand", "EnvCommand"]),
        // What the features and the tool share: the event that lists commands.
        .target(name: "ToolboxKit", dependencies: [sectionRegistry, argumentParser]),
        // A feature's own test, with SectionRegistryTesting's test host.
        .testTarget(name: "GreetTests", dependencies: [
            "Greet", "ToolboxKit", .product(name: "SectionRegistryTesting", package: "SectionRegistry"),
        ]),
    ]
        + feature("Greet") + feature("Sum") + feature("Env"),
    swiftLanguageModes: [.v6]
)
