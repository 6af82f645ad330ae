import Foundation
import SectionRegistry
import Testing

/// A finished child process: how it ended and what it printed.
struct CommandResult: Sendable {
    let status: Int32
    /// Standard output and standard error, interleaved as written.
    let output: String
}

/// Runs `arguments[0]`, found on PATH, with the rest as its arguments, and
/// waits for it without holding a thread: the tests run side by side on
/// the few threads of the cooperative pool (two on a 2-core machine), and a
/// test blocked in a minute-long build would hold back every test timing
/// its own child process.
func runCommand(_ arguments: [String], in directory: URL = packageRoot) async throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = try OutputFile(for: process)
    defer { output.remove() }
    let exit = ProcessExit(of: process)
    try process.run()
    let status = await exit.status()
    return CommandResult(status: status, output: output.text)
}

/// A file that takes a child process's standard output and standard error,
/// interleaved as written. A file, not a pipe: nothing has to read it while
/// the process runs.
struct OutputFile {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID()).log")

    init(for process: Process) throws {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        process.standardOutput = handle
        process.standardError = handle
    }

    /// What the process wrote so far. Bytes that are not UTF-8 (`readelf`
    /// prints a section's raw bytes) are repaired, not a reason to return
    /// nothing.
    var text: String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A child process's exit, awaited without holding a thread
/// (`Process.waitUntilExit()` blocks one).
final class ProcessExit: Sendable {
    /// How the process ended: its status, and when Foundation saw it end
    /// (on a thread of its own, so a test that measures how long a process
    /// took is not misled by a late turn on a busy cooperative pool).
    struct Ending: Sendable {
        let status: Int32
        let instant: ContinuousClock.Instant
    }

    private let state = Locked<(ending: Ending?, waiters: [CheckedContinuation<Ending, Never>])>((nil, []))

    /// Watches `process`, which must not have been started yet.
    init(of process: Process) {
        process.terminationHandler = { [self] process in
            let ending = Ending(status: process.terminationStatus, instant: .now)
            let waiters = state.withLock { state in
                state.ending = ending
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: ending) }
        }
    }

    /// How the process ended, once it has.
    func ending() async -> Ending {
        await withCheckedContinuation { waiter in
            let ending = state.withLock { state in
                if state.ending == nil { state.waiters.append(waiter) }
                return state.ending
            }
            if let ending { waiter.resume(returning: ending) }
        }
    }

    /// The exit status, once the process has ended.
    func status() async -> Int32 {
        await ending().status
    }
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
/// build of a package that depends on it by path. A build is made once per
/// test run (``SwiftBuilds``).
func swiftBuild(
    _ product: String,
    packagePath: URL = packageRoot,
    scratch: String,
    extraArguments: [String] = []
) async throws -> (result: CommandResult, binary: String) {
    let scratchPath = packageRoot.appendingPathComponent(".build-tests/\(scratch)").path
    let arguments = ["swift", "build", "--package-path", packagePath.path, "--scratch-path", scratchPath,
                     "--product", product, "--disable-build-manifest-caching"] + extraArguments
    return try await SwiftBuilds.shared.build(arguments, product: product)
}

/// The builds of this test run, each made once: the packages the tests
/// build are the repository's own, which no test changes, and many suites
/// and tests build the same product. Every SwiftPM run, even one with
/// nothing to do, plans the whole package again (a second on this
/// machine), and two at once in one scratch folder wait for each other.
actor SwiftBuilds {
    static let shared = SwiftBuilds()

    private var made: [[String]: Task<(result: CommandResult, binary: String), any Error>] = [:]

    /// The result of `swift build` with `arguments`, and `product`'s path.
    func build(_ arguments: [String], product: String) async throws -> (result: CommandResult, binary: String) {
        if let build = made[arguments] { return try await build.value }
        let build = Task { () async throws -> (result: CommandResult, binary: String) in
            let result = try await runCommand(arguments)
            let binPath = try await runCommand(arguments + ["--show-bin-path"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            return (result, binPath + "/" + product)
        }
        made[arguments] = build
        return try await build.value
    }
}

/// Builds of a package with each linker, each made once per test run for
/// every suite that needs it: built with gold, then relinked with lld or
/// bfd from the same objects (scripts/relink.py, as scripts/build-matrix.sh
/// does). The linker flag changes only the link, and SwiftPM would compile
/// everything again for it. One owner, so that no two suites build or
/// relink into the same folder at once.
actor LinkedBuilds {
    static let shared = LinkedBuilds()

    struct Build: Sendable {
        /// The folder of the products.
        let bin: String
        /// What the build printed (gold's, for a relinked one).
        let output: String
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private var made: [String: Task<Build, any Error>] = [:]

    /// `products` of `package`, built with `arguments` in .build-tests/`scratch`-gold,
    /// and for `linker` lld or bfd relinked into .build-tests/`scratch`-`linker``variant`
    /// with `linkArguments` added to each link.
    func build(
        _ products: [String], of package: URL = packageRoot, scratch: String, arguments: [String] = [],
        linker: String, variant: String = "", linkArguments: [String] = []
    ) async throws -> Build {
        let name = "\(scratch)-\(linker)\(variant)"
        if let build = made[name] { return try await build.value }
        let build = Task {
            guard linker != "gold" || !variant.isEmpty else {
                return try await Self.buildWithGold(products, of: package, scratch: name, arguments: arguments)
            }
            let gold = try await self.build(products, of: package, scratch: scratch, arguments: arguments, linker: "gold")
            let tests = packageRoot.appendingPathComponent(".build-tests").path
            let relink = try await runCommand([packageRoot.appendingPathComponent("scripts/relink.py").path,
                                               "\(tests)/\(scratch)-gold", "\(tests)/\(name)", linker] + linkArguments)
            guard relink.status == 0 else { throw Failed(description: relink.output) }
            return Build(bin: gold.bin.replacingOccurrences(of: "/\(scratch)-gold/", with: "/\(name)/"), output: gold.output)
        }
        made[name] = build
        return try await build.value
    }

    private static func buildWithGold(_ products: [String], of package: URL, scratch: String, arguments: [String]) async throws -> Build {
        var bin = "", output = ""
        for product in products {
            let build = try await swiftBuild(product, packagePath: package, scratch: scratch, extraArguments: arguments + ["-Xswiftc", "-use-ld=gold"])
            guard build.result.status == 0 else { throw Failed(description: build.result.output) }
            bin = URL(fileURLWithPath: build.binary).deletingLastPathComponent().path
            output += build.result.output
        }
        return Build(bin: bin, output: output)
    }

    /// The example, `registry-example`, in release with `linker`.
    func releaseExample(linkedBy linker: String) async throws -> (binary: String, output: String) {
        let build = try await build(["registry-example"], scratch: "release", arguments: ["-c", "release"], linker: linker)
        return (build.bin + "/registry-example", build.output)
    }
}

/// A product of Tests/Fixtures/WorkerPackage (`Worker`, `Tool`), built.
func workerPackageProduct(_ product: String) async throws -> String {
    try await builtProduct(product, packagePath: packageRoot.appendingPathComponent("Tests/Fixtures/WorkerPackage"), scratch: "worker")
}

/// Builds `product` of the package at `packagePath` and returns the binary's
/// path, or fails the test with the build log.
func builtProduct(_ product: String, packagePath: URL, scratch: String) async throws -> String {
    let build = try await swiftBuild(product, packagePath: packagePath, scratch: scratch)
    try #require(build.result.status == 0, "\(build.result.output)")
    return build.binary
}
