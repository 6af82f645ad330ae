// swift-tools-version: 6.3
// An app whose features are shared objects linked at build time (from the
// Features package), and a plugin that brings a library of its own:
// - shared-app: the Gateway and Ledger modules, and Inventory, Pricing and
//   Stock from libInventory.so, libPricing.so and libStock.so; loads the
//   plugins it is given;
// - ReportsPlugin: libReportsPlugin.so, whose Reports comes after Charts,
//   in libCharts.so, which the plugin needs and the app does not link, and
//   Exports after Reports;
// Ledger, Stock and Exports are registered from Swift (@AppModule's
// expansion, written out), the others in C.
// - own-copy-app: links SectionRegistryDynamic and libRogue.so, whose copy
//   the dynamic linker may bind the program to: two copies, refused;
// - static-copy-app: links SectionRegistry statically, a copy of its own,
//   and libRogue.so, with a copy of its own too, and libInventory.so, which
//   uses SectionRegistryDynamic: neither library's modules are its modules.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistryDynamic", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")
let contracts = Target.Dependency.product(name: "FeatureContracts", package: "Contracts")
func feature(_ name: String) -> Target.Dependency { .product(name: name, package: "Features") }

let package = Package(
    name: "SharedLibraryApp",
    products: [
        .executable(name: "shared-app", targets: ["SharedApp"]),
        .executable(name: "own-copy-app", targets: ["OwnCopyApp"]),
        .executable(name: "static-copy-app", targets: ["StaticCopyApp"]),
        .library(name: "ReportsPlugin", type: .dynamic, targets: ["Reports"]),
    ],
    dependencies: [
        .package(name: "SectionRegistry", path: "../../../.."),
        .package(name: "Features", path: "../Features"),
        .package(name: "Contracts", path: "../Contracts"),
    ],
    targets: [
        .executableTarget(name: "SharedApp", dependencies: [
            sectionRegistry, "Gateway", "Ledger", contracts, feature("Inventory"), feature("Pricing"), feature("Stock"),
        ]),
        .executableTarget(name: "OwnCopyApp", dependencies: [sectionRegistry, "Gateway", feature("Rogue")]),
        .executableTarget(name: "StaticCopyApp", dependencies: [
            .product(name: "SectionRegistry", package: "SectionRegistry"), feature("Rogue"), feature("Inventory"),
        ]),
        .target(name: "Gateway", dependencies: [sectionRegistry, contracts, "GatewayRegistration"]),
        .target(name: "GatewayRegistration", dependencies: [records], publicHeadersPath: "."),
        .target(name: "Reports", dependencies: [
            sectionRegistry, contracts, feature("Charts"), "ReportsRegistration", "Exports",
        ]),
        // Registered from Swift (@AppModule, written out): one target each,
        // which takes the note and anchor from SectionRegistryRecords.
        .target(name: "Ledger", dependencies: [sectionRegistry, records, contracts]),
        .target(name: "Exports", dependencies: [sectionRegistry, records, contracts]),
        .target(name: "ReportsRegistration", dependencies: [records], publicHeadersPath: "."),
    ],
    swiftLanguageModes: [.v6]
)
