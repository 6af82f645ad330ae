// swift-tools-version: 6.3
// The benchmarks, which scripts/bench.sh builds and runs. A package of their
// own, so that packages depending on SectionRegistry see none of their
// products; run them with
//
//     scripts/bench.sh --smoke
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let records = Target.Dependency.product(name: "SectionRegistryRecords", package: "SectionRegistry")

let package = Package(
    name: "SectionRegistryBenchmarks",
    products: [
        .executable(name: "registry-bench", targets: ["BenchmarkRunner"]),
        // For the packages scripts/generate-bench-package.sh writes.
        .library(name: "RegistryBenchmarks", targets: ["RegistryBenchmarks"]),
    ],
    // Named: a path dependency's identity is its folder's name, which is
    // whatever each clone is called.
    dependencies: [.package(name: "SectionRegistry", path: "../..")],
    targets: [
        .target(name: "CRegistryBenchmarks", dependencies: [records]),
        .target(name: "RegistryBenchmarks", dependencies: [sectionRegistry, "CRegistryBenchmarks"]),
        .executableTarget(name: "BenchmarkRunner", dependencies: ["RegistryBenchmarks"]),
    ],
    swiftLanguageModes: [.v6]
)
