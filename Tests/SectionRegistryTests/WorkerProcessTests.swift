import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A small server built from the README as a new user would (Tests/Fixtures/
/// WorkerPackage): a Store, and a Ticker whose `run` works in the background.
/// Each test runs the real process under `ModuleHost.main()` and ends it.
@Suite(.serialized) struct WorkerProcessTests {
    typealias Running = ExampleProcessTests.RunningExample

    func worker() async throws -> String {
        try await workerPackageProduct("Worker")
    }

    @Test func sigtermEndsTheRunByCancellationThenStopsInReverseOrderAndExits0() async throws {
        let worker = try Running(try await worker(), arguments: [])
        try await worker.waitFor("Ticker: tick 2")
        worker.send(SIGTERM)
        #expect(await worker.exitStatus() == 0, "\(worker.text)")
        let after = worker.lines(after: "SIGTERM, stopping modules in reverse start order").map { $0.replacingOccurrences(of: " module=Ticker", with: "").replacingOccurrences(of: " module=Store", with: "") }
        #expect(after.contains { $0.hasPrefix("INFO Ticker: cancelled after") }, "the run ended by its cancellation: \(after)")
        #expect(Array(after.drop { !$0.hasPrefix("INFO Ticker: cancelled") }.dropFirst())
            == ["INFO Ticker: stopped", "INFO Store: stopped", "INFO SectionRegistry: stopped: Ticker, Store"])
    }

    @Test func aRunThatThrowsShutsTheAppDownAndExits1NamingTheModule() async throws {
        let worker = try Running(try await worker(), arguments: [], environment: ["WORKER_JAM_AFTER": "2"])
        #expect(await worker.exitStatus() == 1, "\(worker.text)")
        let text = worker.text
        #expect(text.contains("SectionRegistry: module 'Ticker' failed in run, stopping every module: failed after"))
        #expect(text.contains("Store: stopped"), "the others were stopped gracefully")
        #expect(worker.text.split(separator: "\n").last == "SectionRegistry: module 'Ticker' failed in run: the ticker jammed (stopped: Ticker, Store)")
    }

    @Test func sigtermWhileAStartAwaitsEndsTheProcessWithinASecond() async throws {
        let worker = try Running(try await worker(), arguments: [], environment: ["WORKER_SLOW_START": "1"])
        try await worker.waitFor("Store: starting slowly")
        let signalled = ContinuousClock.now
        worker.send(SIGTERM)
        let status = await worker.exitStatus()
        #expect(signalled.duration(to: await worker.exitInstant()) < .seconds(2), "within a second on an idle machine; 2 s leaves room for a loaded one: \(worker.text)")
        #expect(status == 0, "a cancelled launch that stopped what started is a clean exit: \(worker.text)")
        #expect(!worker.text.contains("Ticker"), "no hook after the signal")
        let lines = worker.text.split(separator: "\n")
        let signalLine = lines.firstIndex { $0.contains("SIGTERM, stopping modules in reverse start order") }
        let cancelledLine = lines.firstIndex { $0.contains("Store start cancelled") }
        #expect(signalLine != nil && cancelledLine != nil && signalLine! < cancelledLine!, "the signal is logged before what it caused: \(lines)")
        #expect(lines.contains { $0.hasSuffix("launch cancelled; no module had started") })
    }

    @Test func aStopOverItsLimitIsNamedInTheLastLineAndTheStatusIs3() async throws {
        let worker = try Running(try await worker(), arguments: [], environment: ["WORKER_HUNG_STOP": "1"])
        try await worker.waitFor("Ticker: tick 1")
        worker.send(SIGTERM)
        #expect(await worker.exitStatus() == 3, "\(worker.text)")
        let last = try #require(worker.text.split(separator: "\n").last)
        #expect(last.hasPrefix("ERROR SectionRegistry: stopped with 1 failure: Store stop did not finish within its time limit"), "\(last)")
        #expect(last.contains("stopped cleanly: Ticker"))
    }
}
