// swift-tools-version: 6.3
// What the fixture modules share, as one shared object: a type linked
// statically into two images would be two types, and an event of one would
// never reach the handlers of the other.
import PackageDescription

let package = Package(
    name: "Contracts",
    products: [.library(name: "FeatureContracts", type: .dynamic, targets: ["FeatureContracts"])],
    dependencies: [.package(name: "SectionRegistry", path: "../../../..")],
    targets: [
        .target(name: "FeatureContracts", dependencies: [.product(name: "SectionRegistryDynamic", package: "SectionRegistry")]),
    ],
    swiftLanguageModes: [.v6]
)
