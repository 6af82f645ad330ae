// swift-tools-version: 6.3
// The README's "Add a module from Swift" package, as written there (only the
// path to SectionRegistry differs), built and run by MacroReadmeTests.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")

let package = Package(
    name: "Shop",
    dependencies: [.package(name: "SectionRegistry", path: "../../..", traits: ["Macros"])],
    targets: [
        .target(name: "Contracts", dependencies: [sectionRegistry]),
        .target(name: "Accounts", dependencies: [sectionRegistry, "Contracts"]),
        .target(name: "Billing", dependencies: [sectionRegistry, "Contracts"]),
        .executableTarget(name: "App", dependencies: [sectionRegistry, "Accounts", "Billing"]),
    ],
    swiftLanguageModes: [.v6]
)
