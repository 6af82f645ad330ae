import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The example app as a real process: signals, the environment, and what it
/// prints.
@Suite(.serialized) struct ExampleProcessTests {
    /// The debug example, built once per test run into its own scratch folder.
    func example() async throws -> String {
        let build = try await swiftBuild("registry-example", scratch: "debug")
        try #require(build.result.status == 0, "\(build.result.output)")
        return build.binary
    }

    /// A running example whose standard output and standard error go to a
    /// file, read as it grows.
    final class RunningExample {
        let process = Process()
        private let output: OutputFile
        private let exit: ProcessExit

        init(_ binary: String, arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            output = try OutputFile(for: process)
            exit = ProcessExit(of: process)
            try process.run()
        }

        var text: String {
            output.text
        }

        /// Waits until the output holds `needle`; fails after 20 seconds.
        func waitFor(_ needle: String) async throws {
            for _ in 0..<400 where !text.contains(needle) {
                try await Task.sleep(for: .milliseconds(50))
            }
            try #require(text.contains(needle), "no \"\(needle)\" in:\n\(text)")
        }

        func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        /// Waits for the process to end and returns its exit status.
        func exitStatus() async -> Int32 {
            await exit.status()
        }

        /// Waits for the process to end and returns when it did.
        func exitInstant() async -> ContinuousClock.Instant {
            await exit.ending().instant
        }

        /// The lines after `marker`, in order.
        func lines(after marker: String) -> [Substring] {
            let all = text.split(separator: "\n")
            guard let start = all.firstIndex(where: { $0.contains(marker) }) else { return [] }
            return Array(all[(start + 1)...])
        }
    }

    @Test func sigtermStopsTheModulesInReverseStartOrderAndExitsCleanly() async throws {
        let example = try RunningExample(try await example(), arguments: ["serve"])
        try await example.waitFor("Audit: every module has started")
        example.send(SIGTERM)
        #expect(await example.exitStatus() == 0, "\(example.text)")
        let stopping = example.lines(after: "stopping modules in reverse start order")
        #expect(stopping.first?.hasPrefix("    Audit: checkpointer ended after ") == true, "Audit's run ended first: \(stopping)")
        #expect(stopping.dropFirst() == [
            "    Audit: flushed the trail",
            "    Billing: closed the ledger",
            "    Search: closed the index",
            "    Accounts: stopped",
            "SectionRegistry: stopped: Audit, Billing, Search, Accounts",
        ])
    }

    @Test func sighupReloadsAndTheProcessKeepsServing() async throws {
        let example = try RunningExample(try await example(), arguments: ["serve"])
        try await example.waitFor("Audit: every module has started")
        example.send(SIGHUP)
        try await example.waitFor("Audit: reloaded rules")
        #expect(example.lines(after: "SIGHUP, reloading").prefix(2) == ["    Billing: reloaded tariffs", "    Audit: reloaded rules"])
        #expect(example.process.isRunning)
        example.send(SIGINT)
        #expect(await example.exitStatus() == 0)
        #expect(example.text.contains("SectionRegistry: stopped: Audit, Billing, Search, Accounts"))
    }

    @Test func theDemoShowsEachKindOfDispatch() async throws {
        let example = try RunningExample(try await example(), arguments: ["--timings"])
        #expect(await example.exitStatus() == 0)
        let text = example.text
        #expect(text.contains("/billing/42 -> Billing: invoice 42: paid"))
        #expect(text.contains("/nowhere -> no module handled it"))
        #expect(example.lines(after: "DailyReport, broadcast").prefix(2)
            == ["    Billing: 12 invoices on 2026-11-21", "    Audit: 0 anomalies on 2026-11-21"])
        #expect(text.contains("Search: no answer within the time limit"))
        #expect(text.contains("Billing: healthy"))
        #expect(example.lines(after: "Where the time went").first?.split(separator: " ")
            == ["module", "setUp", "start", "ready", "stop", "events"])
    }

    @Test func aModuleIsDisabledByTheEnvironmentWithoutARebuild() async throws {
        let example = try RunningExample(try await example(), arguments: [], environment: ["SECTION_REGISTRY_DISABLE": "Search"])
        #expect(await example.exitStatus() == 0)
        #expect(example.text.contains("Running: Accounts, Billing, Audit"))
        #expect(example.text.contains("/search?q=swift -> no module handled it"))
    }
}
