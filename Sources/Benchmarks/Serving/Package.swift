// swift-tools-version: 6.3
// The request path of `context.serve(app)` counted in instructions
// (scripts/serve-bench.sh): one module that answers GET /hello, run with
// `context.serve(app)` or with a plain `try await app.run()`, under
// callgrind, while a keep-alive client sends it a fixed number of requests.
// A package of its own: Hummingbird and swift-nio are this benchmark's
// dependencies, never those of SectionRegistry's users, nor of the other
// benchmarks' runner.
import PackageDescription

let package = Package(
    name: "ServeBenchmark",
    products: [
        .executable(name: "serve-bench", targets: ["ServeBench"]),
    ],
    // Named: a path dependency's identity is its folder's name, which is
    // whatever each clone is called.
    dependencies: [
        .package(name: "SectionRegistry", path: "../../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "ServeBench", dependencies: [
            "HelloRegistration",
            .product(name: "SectionRegistry", package: "SectionRegistry"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .target(name: "HelloRegistration", dependencies: [.product(name: "SectionRegistry", package: "SectionRegistry")], publicHeadersPath: "."),
    ],
    swiftLanguageModes: [.v6]
)
