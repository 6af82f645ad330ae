import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot program (Tests/Fixtures/WorkerPackage, product Tool) under
/// `ModuleHost.main(configuration:_:)`: the real process, its real signals,
/// its exit status and everything it wrote.
@Suite(.serialized) struct CommandProcessTests {
    typealias Running = ExampleProcessTests.RunningExample

    func tool() async throws -> String {
        try await workerPackageProduct("Tool")
    }

    @Test func aNormalRunWritesOnlyTheWorksOutputAndExits0() async throws {
        for _ in 0..<5 {
            let tool = try Running(try await tool(), arguments: [])
            #expect(await tool.exitStatus() == 0, "\(tool.text)")
            #expect(tool.text == "work: running Store, Ticker\n", "no log line on a normal run")
        }
    }

    @Test func sigintCancelsTheWorkThenStopsTheModulesAndExits130() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "wait", "SECTION_REGISTRY_LOG_LEVEL": "info"])
        try await tool.waitFor("work: waiting")
        tool.send(SIGINT)
        #expect(await tool.exitStatus() == 130, "\(tool.text)")
        let lines = tool.text.split(separator: "\n").map(String.init)
        let cancelled = try #require(lines.firstIndex(of: "work: cancelled"), "\(lines)")
        let stopped = try #require(lines.firstIndex { $0.hasPrefix("INFO Store: stopped") }, "\(lines)")
        #expect(cancelled < stopped, "the work ended before the modules it uses were stopped: \(lines)")
        #expect(lines.contains { $0.hasPrefix("INFO Ticker: stopped") })
    }

    @Test func sigtermExits143AndAnInterruptedRunIsQuietByDefault() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "wait"])
        try await tool.waitFor("work: waiting")
        tool.send(SIGTERM)
        #expect(await tool.exitStatus() == 143, "\(tool.text)")
        #expect(tool.text == "work: waiting\nwork: cancelled\n")
    }

    @Test func workThatIgnoresItsCancellationIsLeftBehindAfterItsLimit() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "block"])
        try await tool.waitFor("work: blocking")
        tool.send(SIGINT)
        // The work blocks for 30 s; the limit is 1 s. No duration is
        // measured: the process must end without the work's last line.
        #expect(await tool.exitStatus() == 130, "\(tool.text)")
        #expect(!tool.text.contains("work: unblocked"), "\(tool.text)")
        #expect(tool.text.contains("WARNING SectionRegistry: the work did not end within 1.0 seconds of its cancellation: left behind"), "\(tool.text)")
    }

    @Test func aSecondSignalEndsTheWaitForWorkThatIgnoresItsCancellation() async throws {
        // A limit far past the work's 30 s: only the second signal ends the wait.
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "block", "TOOL_CANCEL_LIMIT": "3600", "SECTION_REGISTRY_LOG_LEVEL": "debug"])
        try await tool.waitFor("work: blocking")
        tool.send(SIGINT)
        try await tool.waitFor("work: cancelled, going on")
        tool.send(SIGINT)
        #expect(await tool.exitStatus() == 130, "\(tool.text)")
        #expect(tool.text.contains("WARNING SectionRegistry: the work did not end before a second SIGINT ended the wait: left behind"), "\(tool.text)")
        #expect(!tool.text.contains("work: unblocked"), "\(tool.text)")
    }

    @Test func workThatThrowsExits1WithItsErrorOnce() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "throw"])
        #expect(await tool.exitStatus() == 1)
        #expect(tool.text == "the tool failed on purpose\n")
    }

    @Test func theWorksStatusIsTheProcesss() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "exit5"])
        #expect(await tool.exitStatus() == 5)
        #expect(tool.text.isEmpty)
    }

    @Test func aFailedLaunchIsOneMessageNamingWhatFailed() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["SECTION_REGISTRY_DISABLE": "Tickr"])
        #expect(await tool.exitStatus() == 1)
        #expect(tool.text == """
            SectionRegistry: the modules cannot be disabled as asked; nothing was started:
              - cannot disable 'Tickr': no module of that name is linked (linked: Store, Ticker). Did you mean 'Ticker'?

            """)
    }

    @Test func aRunThatFailsDuringTheWorkCancelsItAndExits1() async throws {
        let tool = try Running(try await tool(), arguments: [], environment: ["TOOL_WORK": "wait", "WORKER_JAM_AFTER": "20"])
        #expect(await tool.exitStatus() == 1, "\(tool.text)")
        let lines = tool.text.split(separator: "\n")
        #expect(lines.contains("work: cancelled"), "\(lines)")
        #expect(lines.last == "SectionRegistry: module 'Ticker' failed in run: the ticker jammed (stopped: Ticker, Store)", "\(lines)")
        #expect(tool.text.components(separatedBy: "the ticker jammed").count == 3, "logged when it failed, then the final message: \(lines)")
    }
}
