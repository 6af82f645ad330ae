// swift-tools-version: 6.3
// Feature libraries that apps link at build time, each a `.dynamic` product
// (a shared object of its own), for the tests of Tests/Fixtures/SharedLibraries/App:
// - Inventory comes after the app's Gateway; Pricing after Inventory;
// - Charts is a dependency of the App package's plugin, libReportsPlugin.so;
// - Rogue links SectionRegistry statically: a copy of its own;
// - Stock, registered from Swift, comes after Inventory.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistryDynamic", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")

/// A feature's Swift target and its registration target.
func feature(_ name: String, registry: Target.Dependency = sectionRegistry, contracts: Bool = true) -> [Target] {
    [
        .target(name: name, dependencies: [registry, .target(name: "\(name)Registration")] + (contracts ? [.product(name: "FeatureContracts", package: "Contracts")] : [])),
        .target(name: "\(name)Registration", dependencies: [records], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "Features",
    products: ["Inventory", "Pricing", "Charts", "Rogue", "Stock"].map {
        .library(name: $0, type: .dynamic, targets: [$0])
    },
    dependencies: [
        .package(name: "SectionRegistry", path: "../../../.."),
        .package(name: "Contracts", path: "../Contracts"),
    ],
    targets: feature("Inventory") + feature("Pricing") + feature("Charts")
        + feature("Rogue", registry: .product(name: "SectionRegistry", package: "SectionRegistry"), contracts: false)
        // Registered from Swift (@AppModule's expansion, written out): one
        // target, which takes the note and anchor from SectionRegistryRecords.
        + [.target(name: "Stock", dependencies: [sectionRegistry, records, .product(name: "FeatureContracts", package: "Contracts")])],
    swiftLanguageModes: [.v6]
)
