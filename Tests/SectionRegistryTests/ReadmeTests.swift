import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The README's "Add a module" package and its snippets, as written there
/// (Tests/Fixtures/ReadmePackage), built and run.
@Suite(.serialized) struct ReadmeTests {
    let package = packageRoot.appendingPathComponent("Tests/Fixtures/ReadmePackage")

    func built(_ product: String) async throws -> String {
        try await builtProduct(product, packagePath: package, scratch: "readme")
    }

    /// `swift package check-modules`, the plugin README's "Verify a build"
    /// shows first, in the README's package: it builds the product and
    /// passes check's verdict on.
    func checkModules(_ arguments: [String]) async throws -> CommandResult {
        let scratch = packageRoot.appendingPathComponent(".build-tests/readme").path
        return try await runCommand(["swift", "package", "--package-path", package.path, "--scratch-path", scratch, "check-modules"] + arguments)
    }

    @Test func checkModulesBuildsTheProductAndPassesWhatCheckPasses() async throws {
        let passed = try await checkModules(["--product", "App", "--expect", "Billing", "--expect", "Accounts"])
        #expect(passed.status == 0, "\(passed.output)")
        #expect(passed.output.contains("/debug/App: 2 modules, all checks passed: Billing, Accounts"), "\(passed.output)")
    }

    @Test func checkModulesFailsNamingAModuleThatIsNotRegistered() async throws {
        let failed = try await checkModules(["--product", "App", "-c", "debug", "--expect", "Billing", "--expect", "Audit", "--expect", "accounts"])
        #expect(failed.status != 0, "\(failed.output)")
        #expect(failed.output.contains("check failed:\n  - expected module 'Audit' is not in app_modules.\n"), "\(failed.output)")
        #expect(failed.output.contains("  - expected module 'accounts' is not in app_modules. Did you mean 'Accounts'?"), "\(failed.output)")
        #expect(failed.output.contains("Plugin ended with exit code 1"), "\(failed.output)")
    }

    @Test func theAppIsModuleHostMainAndStopsGracefully() async throws {
        let app = try ExampleProcessTests.RunningExample(try await built("App"), arguments: [])
        defer { if app.process.isRunning { app.send(SIGKILL) } }
        // print() buffers a pipe or file until exit, so wait for the host to
        // catch SIGTERM instead of for a line; one during launch is served
        // once launch ends.
        try await waitUntilCatching(SIGTERM, pid: app.process.processIdentifier)
        app.send(SIGTERM)
        #expect(await app.exitStatus() == 0, "\(app.text)")
        // The default log handler writes to standard error, unbuffered.
        #expect(app.text.hasSuffix("INFO SectionRegistry: stopped: Billing, Accounts\n"), "\(app.text)")
    }

    @Test func theEventsSnippetBroadcastsAsksTheFirstHandlerGathersAndTerminates() async throws {
        let run = try await runCommand([try built("EventsApp")])
        #expect(run.status == 0, "\(run.output)")
        // The module's log line comes first: standard error is unbuffered,
        // print()'s standard output is written at exit.
        #expect(run.output == """
            INFO Billing: billing ada, grace module=Billing
            Billing: 12 invoices on 2026-11-21
            /billing/42 -> Billing: invoice
            Accounts: handled: true
            Billing: handled: true
            stopped Billing
            stopped Accounts

            """)
    }

    /// The README's "Test a module": Billing's test, run by `swift test` in
    /// the package, passes.
    @Test func billingsTestPasses() async throws {
        let scratch = packageRoot.appendingPathComponent(".build-tests/readme").path
        let run = try await runCommand(["swift", "test", "--package-path", package.path, "--scratch-path", scratch])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("✔ Test billingBillsEveryAccount() passed"), "\(run.output)")
    }

    /// Waits until process `pid` has a handler for `signal`, as
    /// /proc/PID/status lists it (SigCgt); fails after 20 seconds.
    func waitUntilCatching(_ signal: Int32, pid: Int32) async throws {
        func catching() -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                  let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << UInt64(signal - 1)) != 0
        }
        for _ in 0..<400 where !catching() {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(catching(), "process \(pid) never caught signal \(signal)")
    }
}

/// The README shows the fixtures' files as they are.
@Suite struct ReadmeSnippetTests {
    let readme = packageRoot.appendingPathComponent("README.md")

    /// (The C package's Billing.swift has event handlers the README leaves
    /// out.)
    @Test(arguments: ["Tests/Fixtures/ReadmeMacroPackage/Sources/Billing/Billing.swift",
                      "Tests/Fixtures/ReadmePackage/Tests/BillingTests/BillingTests.swift"])
    func theReadmeShowsTheFile(_ path: String) throws {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let file = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(text.contains("```swift\n" + file + "```"), "README.md does not show \(path) as it is")
    }

    /// The C package's Accounts has event handlers the README leaves out;
    /// its `run` is there as it is.
    @Test func theReadmeShowsAccountsRunAsItIs() throws {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let file = try String(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/ReadmePackage/Sources/Accounts/Accounts.swift"),
                              encoding: .utf8)
        let start = try #require(file.range(of: "    /// Long-running work"))
        let run = String(file[start.lowerBound...].dropLast(2))  // the type's closing brace
        #expect(run.hasSuffix("    }\n") && text.contains("```swift\n" + run + "```"), "README.md does not show Accounts' run as it is")
    }

    @Test func theReadmeShowsTheRegistrationLinesAndTheMacroPackagesTargets() throws {
        let text = try String(contentsOf: readme, encoding: .utf8)
        for path in ["AccountsRegistration/accounts.c", "BillingRegistration/billing.c"] {
            let file = try String(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/ReadmePackage/Sources/" + path), encoding: .utf8)
            let line = try #require(file.split(separator: "\n").first { $0.hasPrefix("APP_MODULE(") })
            #expect(text.contains("// Sources/\(path)\n#include <app_module.h>\n\(line)\n"), "\(path)")
        }
        let shop = try String(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/ReadmePackage/Package.swift"), encoding: .utf8)
        let lines = shop.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.contains(".testTarget(name: \"BillingTests\"") })
        let last = try #require(lines[first...].firstIndex { $0 == "        ])," })
        let declaration = lines[first...last].map { $0.dropFirst(8) }.joined(separator: "\n")
        #expect(text.contains("```swift\n" + declaration + "\n```"), "README.md does not show the BillingTests target as Package.swift has it")
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/ReadmeMacroPackage/Package.swift"), encoding: .utf8)
        let targets = manifest.split(separator: "\n").filter { $0.contains(".target(") || $0.contains(".executableTarget(") }
        for target in targets {
            #expect(text.contains(target), "README.md does not show \(target)")
        }
    }
}
