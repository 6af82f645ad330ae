// swift-tools-version: 6.3
// The plugin example: a program, registry-plugin-host, with one module of
// its own (Clock), and a plugin, libReportsPlugin.so, whose module (Reports)
// comes after Clock. The program loads the plugins named on its command line.
//
//     swift build --package-path Sources/Example/Plugins
//     .build/debug/registry-plugin-host .build/debug/libReportsPlugin.so
//
// The program and the plugin link SectionRegistry as one shared library
// (SectionRegistryDynamic), so a plugin's modules are the program's
// AppModule type; each registration target takes the C side statically
// (SectionRegistryRecords), so each image has its own section bounds.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistryDynamic", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")

let package = Package(
    name: "RegistryPluginExample",
    products: [
        .executable(name: "registry-plugin-host", targets: ["PluginHost"]),
        .library(name: "ReportsPlugin", type: .dynamic, targets: ["Reports"]),
    ],
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        .executableTarget(name: "PluginHost", dependencies: [sectionRegistry, "Clock"]),
        .target(name: "Clock", dependencies: [sectionRegistry, "ClockRegistration"]),
        .target(name: "ClockRegistration", dependencies: [records], publicHeadersPath: "."),
        .target(name: "Reports", dependencies: [sectionRegistry, "ReportsRegistration"]),
        .target(name: "ReportsRegistration", dependencies: [records], publicHeadersPath: "."),
    ],
    swiftLanguageModes: [.v6]
)
