// swift-tools-version: 6.3
// Plugins the integration tests load into the plugin example's host
// (Sources/Example/Plugins), each built the way a user might get wrong:
// - DuplicatePlugin registers Clock, which the host program registers;
// - OwnCopyPlugin links SectionRegistry statically, a copy of its own;
// - NoRecordsPlugin links SectionRegistry but no APP_MODULE line;
// - DependentPlugin registers Digest, which comes after the example
//   plugin's Reports;
// - BackwardsNotePlugin, LongNotePlugin and WildPointerPlugin are corrupt:
//   a note whose bounds run backwards, a note with a 16-byte descriptor, a
//   record whose .after pointer leads to unmapped memory. Each reaches
//   SectionRegistry's AppModule. CorruptLibraryApp links all three at build
//   time (build them first).
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
        .library(name: "BackwardsNotePlugin", type: .dynamic, targets: ["Corrupt", "BackwardsNoteRegistration"]),
        .library(name: "LongNotePlugin", type: .dynamic, targets: ["Corrupt", "LongNoteRegistration"]),
        .library(name: "WildPointerPlugin", type: .dynamic, targets: ["Corrupt", "WildPointerRegistration"]),
        .executable(name: "CorruptLibraryApp", targets: ["CorruptLibraryApp"]),
    ],
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: plugin("Duplicate") + plugin("Dependent")
        + plugin("OwnCopy", registry: .product(name: "SectionRegistry", package: "SectionRegistry"))
        + [.target(name: "NoRecords", dependencies: [sectionRegistry])]
        + [
            .target(name: "Corrupt", dependencies: [sectionRegistry]),
            .target(name: "CorruptSection"),
            .target(name: "BackwardsNoteRegistration", dependencies: ["CorruptSection"], publicHeadersPath: "."),
            .target(name: "LongNoteRegistration", dependencies: ["CorruptSection"], publicHeadersPath: "."),
            .target(name: "WildPointerRegistration", dependencies: [records], publicHeadersPath: "."),
            .executableTarget(
                name: "CorruptLibraryApp",
                dependencies: [sectionRegistry],
                linkerSettings: ["BackwardsNotePlugin", "LongNotePlugin", "WildPointerPlugin"].map { .linkedLibrary($0) }
            ),
        ],
    swiftLanguageModes: [.v6]
)
