import Foundation

/// A fresh directory for one test's files.
func scratchDirectory(_ label: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Compiles C `source` with `compiler` (clang or gcc) against app_module.h,
/// as a registration target would be, into an object file in `directory`.
/// `headers` is the folder of the app_module.h it includes, relative to the
/// package: this release's by default.
func compileC(
    _ source: String, named name: String, with compiler: String, in directory: URL,
    headers: String = "CSectionRegistry/include"
) async throws -> (result: CommandResult, object: String) {
    let sourceFile = directory.appendingPathComponent("\(name).c")
    try source.write(to: sourceFile, atomically: true, encoding: .utf8)
    let object = directory.appendingPathComponent("\(name).o").path
    let include = packageRoot.appendingPathComponent(headers).path
    let result = try await runCommand([compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fPIC", "-O2",
                                 "-I", include, "-c", sourceFile.path, "-o", object])
    return (result, object)
}
