// swift-tools-version: 6.3
// A package that uses SectionRegistry the way the README tells users to,
// built by the integration tests:
// - GoodApp must link and find Greeter;
// - OrphanApp registers a module without a Swift factory and must not link;
// - UnretainedApp registers a module as a compiler without `retain` would,
//   which lld's --gc-sections drops: discovery must say so;
// - DuplicateApp links two registrations of Greeter and must not link.
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")

/// A C target of APP_MODULE lines.
func registration(_ name: String) -> Target {
    .target(name: name, dependencies: [sectionRegistry], publicHeadersPath: ".")
}

let package = Package(
    name: "ClientPackage",
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        registration("GreeterRegistration"),
        .target(name: "Greeter", dependencies: [sectionRegistry, "GreeterRegistration"]),
        .executableTarget(name: "GoodApp", dependencies: [sectionRegistry, "Greeter"]),

        registration("OrphanRegistration"),
        .executableTarget(name: "OrphanApp", dependencies: [sectionRegistry, "OrphanRegistration"]),

        registration("UnretainedRegistration"),
        .target(name: "Unretained", dependencies: [sectionRegistry, "UnretainedRegistration"]),
        .executableTarget(name: "UnretainedApp", dependencies: [sectionRegistry, "Unretained"]),

        registration("DuplicateRegistration"),
        .executableTarget(name: "DuplicateApp", dependencies: [sectionRegistry, "Greeter", "DuplicateRegistration"]),
    ],
    swiftLanguageModes: [.v6]
)
