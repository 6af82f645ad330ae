import Foundation
import Testing

/// A finished child process: how it ended and what it printed.
struct CommandResult {
    let status: Int32
    /// Standard output and standard error, interleaved as written.
    let output: String
}

/// Runs `arguments[0]`, found on PATH, with the rest as its arguments, and
/// waits for it.
func runCommand(_ arguments: [String], in directory: URL = packageRoot) throws -> CommandResult {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}

/// The checkout this test file is in.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// scripts/verify-sections.sh, the readelf check users run on their builds.
let verifySectionsScript = packageRoot.appendingPathComponent("scripts/verify-sections.sh").path

/// Builds `product` of the package at `packagePath` and returns the build
/// log and the binary's path (which exists if the build succeeded).
///
/// Each build has a scratch folder of its own under .build-tests/, so that
/// these nested SwiftPM runs never wait for the lock of the one running the
/// tests, and later runs are incremental. Build manifests are not cached:
/// SwiftPM would miss source files added to SectionRegistry since the last
/// build of a package that depends on it by path.
func swiftBuild(
    _ product: String,
    packagePath: URL = packageRoot,
    scratch: String,
    extraArguments: [String] = []
) throws -> (result: CommandResult, binary: String) {
    let scratchPath = packageRoot.appendingPathComponent(".build-tests/\(scratch)").path
    let arguments = ["swift", "build", "--package-path", packagePath.path, "--scratch-path", scratchPath,
                     "--product", product, "--disable-build-manifest-caching"] + extraArguments
    let result = try runCommand(arguments)
    let binPath = try runCommand(arguments + ["--show-bin-path"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    return (result, binPath + "/" + product)
}

/// A product of Tests/Fixtures/WorkerPackage (`Worker`, `Tool`), built.
func workerPackageProduct(_ product: String) throws -> String {
    try builtProduct(product, packagePath: packageRoot.appendingPathComponent("Tests/Fixtures/WorkerPackage"), scratch: "worker")
}

/// Builds `product` of the package at `packagePath` and returns the binary's
/// path, or fails the test with the build log.
func builtProduct(_ product: String, packagePath: URL, scratch: String) throws -> String {
    let build = try swiftBuild(product, packagePath: packagePath, scratch: scratch)
    try #require(build.result.status == 0, "\(build.result.output)")
    return build.binary
}
