import Foundation

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
