// swift-tools-version: 6.3
// A small server as a new user writes it: a Store, and a Ticker whose `run`
// works in the background for as long as the app runs; and Tool, a one-shot
// program of the same modules. Built and run by WorkerProcessTests and
// CommandProcessTests; what each module does wrong is set by environment
// variables, so that one binary shows each way a process ends.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")

func feature(_ name: String) -> [Target] {
    [
        .target(name: "\(name)Registration", dependencies: [sectionRegistry], publicHeadersPath: "."),
        .target(name: name, dependencies: [sectionRegistry, .target(name: "\(name)Registration")]),
    ]
}

let package = Package(
    name: "Worker",
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        .executableTarget(name: "Worker", dependencies: [sectionRegistry, "Store", "Ticker"]),
        .executableTarget(name: "Tool", dependencies: [sectionRegistry, "Store", "Ticker"]),
    ] + feature("Store") + feature("Ticker"),
    swiftLanguageModes: [.v6]
)
