// swift-tools-version: 6.3
// The README's "Add a module" package, built and run by ReadmeTests: its
// registrations and targets as written there, plus event handlers and an
// EventsApp that ReadmeTests also runs (and the path to SectionRegistry),
// and the test of Billing the README shows.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")

/// A feature: a Swift target with the module, and a one-line C target that
/// registers it.
func feature(_ name: String) -> [Target] {
    [
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
        .target(name: name, dependencies: [sectionRegistry, "Contracts", .target(name: "\(name)Registration")]),
    ]
}

let package = Package(
    name: "Shop",
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        .target(name: "Contracts", dependencies: [sectionRegistry]),
        .executableTarget(name: "App", dependencies: [sectionRegistry, "Accounts", "Billing"]),
        .executableTarget(name: "EventsApp", dependencies: [sectionRegistry, "Contracts", "Accounts", "Billing"]),
        .testTarget(name: "BillingTests", dependencies: [
            "Billing", "Contracts", .product(name: "SectionRegistryTesting", package: "SectionRegistry"),
        ]),
    ] + feature("Accounts") + feature("Billing"),
    swiftLanguageModes: [.v6]
)
