// swift-tools-version: 6.3
// The benchmarks, which scripts/bench.sh builds and runs. A package of their
// own, so that packages depending on SectionRegistry see none of their
// products; run them with
//
//     scripts/bench.sh --smoke
//
// The drain peers (drain-host, drain-group, drain-tasks: one job, three
// ways) need swift-service-lifecycle and swift-log: dependencies of this
// package only, never of SectionRegistry's users.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")

let package = Package(
    name: "SectionRegistryBenchmarks",
    products: [
        .executable(name: "registry-bench", targets: ["BenchmarkRunner"]),
        .executable(name: "drain-host", targets: ["drain-host"]),
        .executable(name: "drain-group", targets: ["drain-group"]),
        .executable(name: "drain-tasks", targets: ["drain-tasks"]),
        // For the packages scripts/generate-bench-package.sh writes.
        .library(name: "RegistryBenchmarks", targets: ["RegistryBenchmarks"]),
    ],
    // Named: a path dependency's identity is its folder's name, which is
    // whatever each clone is called.
    dependencies: [
        .package(name: "SectionRegistry", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(name: "CRegistryBenchmarks", dependencies: [records]),
        .target(name: "RegistryBenchmarks", dependencies: [sectionRegistry, "CRegistryBenchmarks"]),
        .executableTarget(name: "BenchmarkRunner", dependencies: ["RegistryBenchmarks"]),
        // The drain job (scripts/bench.sh's peer table): N long-running
        // services started, all running, all drained, exit.
        .target(name: "DrainPeers"),
        .executableTarget(name: "drain-host", dependencies: ["DrainPeers", sectionRegistry], path: "Sources/DrainHost"),
        .executableTarget(name: "drain-group", dependencies: [
            "DrainPeers",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/DrainGroup"),
        .executableTarget(name: "drain-tasks", dependencies: ["DrainPeers"], path: "Sources/DrainTasks"),
    ],
    swiftLanguageModes: [.v6]
)
