// swift-tools-version: 6.3
// A package that uses SectionRegistry the way the README tells users to,
// built by the integration tests: GoodApp must link and find Greeter;
// OrphanApp registers a module without a Swift factory and must not link.
import PackageDescription

let package = Package(
    name: "ClientPackage",
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        .target(
            name: "Greeter",
            dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry"), "GreeterRegistration"]
        ),
        .target(
            name: "GreeterRegistration",
            dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry")],
            publicHeadersPath: "."
        ),
        .executableTarget(
            name: "GoodApp",
            dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry"), "Greeter"]
        ),
        .target(
            name: "OrphanRegistration",
            dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry")],
            publicHeadersPath: "."
        ),
        .executableTarget(
            name: "OrphanApp",
            dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry"), "OrphanRegistration"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
