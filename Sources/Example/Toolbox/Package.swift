// swift-tools-version: 6.3
// The command-line example: `toolbox`, a git-style tool whose subcommands
// come from the feature modules linked into it, with SectionRegistry's
// `ArgumentParser` trait. Its whole main is `ModuleHost.main(command:)`.
//
//     swift build --package-path Sources/Example/Toolbox -c release
//     .build/release/toolbox --help
//     .build/release/toolbox greet --name Ada
//     .build/release/toolbox translate hello --to fr
//     SECTION_REGISTRY_DISABLE=Sum .build/release/toolbox --help
//
// Each of greet, sum and env is three targets: its command (plain
// ArgumentParser code), a module that offers the command to whatever
// program links it, and the module's one-line C registration. Phrasebook
// is two: its `translate` command uses the module's service, so it lives
// with the module. `toolbox-plain` is greet, sum and env with
// ArgumentParser alone (its commands listed by hand): the benchmark's
// baseline (scripts/toolbox-test.sh). `toolbox-by-hand` is a tool made of
// modules without the trait's API: the glue written by hand, as
// CommandLineTools.md shows it beside the trait.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

/// A feature: its command, its module and the module's registration.
func feature(_ name: String) -> [Target] {
    [
        .target(name: "\(name)Command", dependencies: [argumentParser]),
        .target(name: name, dependencies: [sectionRegistry, .target(name: "\(name)Command"), .target(name: "\(name)Registration")]),
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "Toolbox",
    products: [
        .executable(name: "toolbox", targets: ["Toolbox"]),
        .executable(name: "toolbox-plain", targets: ["ToolboxPlain"]),
        .executable(name: "toolbox-by-hand", targets: ["ToolboxByHand"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../..", traits: ["ArgumentParser"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // Links the features; names none of their commands.
        .executableTarget(name: "Toolbox", dependencies: [sectionRegistry, argumentParser, "Greet", "Sum", "Env", "Phrasebook"]),
        .executableTarget(name: "ToolboxPlain", dependencies: [argumentParser, "GreetCommand", "SumCommand", "EnvCommand"]),
        .target(name: "Phrasebook", dependencies: [sectionRegistry, argumentParser, "PhrasebookRegistration"]),
        .target(name: "PhrasebookRegistration", dependencies: [sectionRegistry], publicHeadersPath: "."),
        // Without the trait's API: one feature, `hello`, whose command uses
        // its module's service, and the glue (the event that lists
        // commands, `run(_:)`, the host's task-local) in ToolboxKit.
        .executableTarget(name: "ToolboxByHand", dependencies: [sectionRegistry, argumentParser, "ToolboxKit", "Hello"]),
        .target(name: "ToolboxKit", dependencies: [sectionRegistry, argumentParser]),
        .target(name: "Hello", dependencies: [sectionRegistry, argumentParser, "ToolboxKit", "HelloRegistration"]),
        .target(name: "HelloRegistration", dependencies: [sectionRegistry], publicHeadersPath: "."),
        // The features' own tests, with SectionRegistryTesting's test host.
        .testTarget(name: "FeatureTests", dependencies: [
            "Greet", "Phrasebook", .product(name: "SectionRegistryTesting", package: "SectionRegistry"),
        ]),
    ]
        + feature("Greet") + feature("Sum") + feature("Env"),
    swiftLanguageModes: [.v6]
)
