// swift-tools-version: 6.3
// Plugins the integration tests load into the plugin example's host
// (Sources/Example/Plugins), each built the way a user might get wrong:
// - DuplicatePlugin registers Clock, which the host program registers;
// - OwnCopyPlugin links SectionRegistry statically, a copy of its own;
// - NoRecordsPlugin links SectionRegistry but no APP_MODULE line;
// - DependentPlugin registers Digest, which comes after the example
//   plugin's Reports.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistryDynamic", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")

/// A dynamic library of one Swift target and its registration target.
func plugin(_ name: String, registry: Target.Dependency = sectionRegistry) -> [Target] {
    [
        .target(name: name, dependencies: [registry, .target(name: "\(name)Registration")]),
        .target(name: "\(name)Registration", dependencies: [records], publicHeadersPath: "."),
    ]
}

let package = Package(
    name: "PluginPackage",
    products: [
        .library(name: "DuplicatePlugin", type: .dynamic, targets: ["Duplicate"]),
        .library(name: "OwnCopyPlugin", type: .dynamic, targets: ["OwnCopy"]),
        .library(name: "NoRecordsPlugin", type: .dynamic, targets: ["NoRecords"]),
        .library(name: "DependentPlugin", type: .dynamic, targets: ["Dependent"]),
    ],
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: plugin("Duplicate") + plugin("Dependent")
        + plugin("OwnCopy", registry: .product(name: "SectionRegistry", package: "SectionRegistry"))
        + [.target(name: "NoRecords", dependencies: [sectionRegistry])],
    swiftLanguageModes: [.v6]
)
