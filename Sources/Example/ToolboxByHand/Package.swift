// swift-tools-version: 6.3
// The toolbox without the `ArgumentParser` trait: the glue a tool made of
// modules needs when the library does not own it (CommandLineTools.md shows
// both). One feature, `hello`, whose command uses its module's service.
//
//     swift build --package-path Sources/Example/ToolboxByHand
//     .build/debug/toolbox-by-hand hello Ada
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "ToolboxByHand",
    products: [
        .executable(name: "toolbox-by-hand", targets: ["ToolboxByHand"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(name: "ToolboxByHand", dependencies: [sectionRegistry, argumentParser, "ToolboxKit", "Hello"]),
        // The glue: the event that lists commands, `run(_:)`, the host's task-local.
        .target(name: "ToolboxKit", dependencies: [sectionRegistry, argumentParser]),
        .target(name: "Hello", dependencies: [sectionRegistry, argumentParser, "ToolboxKit", "HelloRegistration"]),
        .target(name: "HelloRegistration", dependencies: [sectionRegistry], publicHeadersPath: "."),
    ],
    swiftLanguageModes: [.v6]
)
