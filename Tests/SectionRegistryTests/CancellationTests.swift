import SectionRegistryTesting
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Cancelling the task that runs `run()` is graceful shutdown: before,
/// during and after launch.
@Suite struct CancellationTests {
    let journal = Journal()

    /// A, B, C in that start order; each stop awaits a sleep, which a
    /// cancelled stop would cut short, then writes "slept NAME".
    func sleepyModules(startingB whileStarting: @escaping @Sendable () async throws -> Void = {}) -> [ModuleDescriptor] {
        ["A", "B", "C"].map { name in
            scripted(name, journal: journal) { module in
                if name == "B" { module.whileStarting = whileStarting }
                module.whileStopping = { [journal] in
                    try await Task.sleep(for: .milliseconds(30))
                    journal.add("slept \(name)")
                }
            }
        }
    }

    var noSignals: HostConfiguration {
        testConfiguration { $0.servesSignals = false }
    }

    func results(_ outcomes: [HookOutcome]) -> [String] {
        outcomes.map { "\($0.module) \($0.phase) \($0.resultName)" }
    }

    @Test func cancellingAfterLaunchStopsEveryModuleInReverseOrderAndTheirHooksComplete() async throws {
        let host = ModuleHost(registry: try declare(sleepyModules()), configuration: noSignals)
        let running = Task { try await host.run() }
        #expect(await host.waitUntilRunning())
        running.cancel()
        try await running.value
        let outcomes = await host.shutdownOutcomes
        #expect(results(outcomes) == ["C stop completed", "B stop completed", "A stop completed"])
        #expect(journal.modules("stop") == ["C", "B", "A"], "each once, in reverse start order")
        #expect(journal.modules("slept") == ["C", "B", "A"], "the sleeps in stop were not cut short")
        #expect(await host.runningModules.isEmpty)
        #expect(host.status.description == "stopped")
    }

    @Test func cancellingDuringLaunchRollsBackWhatStarted() async throws {
        let (began, beginning) = AsyncStream.makeStream(of: Void.self)
        let log = LogRecorder()
        let host = ModuleHost(registry: try declare(sleepyModules(startingB: {
            beginning.yield()
            try await Task.sleep(for: .seconds(300))  // ends when the launching task is cancelled
        })), configuration: testConfiguration {
            $0.servesSignals = false
            $0.log = log.handler(logLevel: .trace)
        })
        let running = Task { try await host.run() }
        for await _ in began { break }
        running.cancel()
        try await running.value
        #expect(journal.modules("slept") == ["A"], "the rollback's stop ran to its end")
        #expect(!journal.entries.contains("start B"), "B never said it started, so it is not stopped")
        #expect(!journal.entries.contains("begin C"), "no hook after the cancellation")
        #expect(journal.modules("ready").isEmpty)
        guard case .launchFailed(let error) = host.status, error.code == .cancelled else {
            Issue.record("status \(host.status)")
            return
        }
        #expect(results(error.rollback) == ["A stop completed"])
        #expect(log.lines.filter { $0.level >= .error }.isEmpty, "a cancellation is no failure")
        #expect(log.lines.contains { $0.level == .info && $0.message == "SectionRegistry: launch cancelled; stopped again: A" })
    }

    @Test func cancellingBeforeLaunchStartsNothing() async throws {
        let host = ModuleHost(registry: try declare(sleepyModules()), configuration: noSignals)
        let running = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await host.run()
        }
        try await running.value
        #expect(journal.entries.isEmpty)
        // The stop came before the launch: the host stopped without launching.
        #expect(host.status.description == "stopped")
    }

    @Test func aStopHookStillHasOnlyItsTimeLimit() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.hangsInStop = true },
            scripted("C", journal: journal),
        ]), configuration: testConfiguration {
            $0.servesSignals = false
            $0.stopTimeLimit = .milliseconds(100)
        })
        let running = Task { try await host.run() }
        #expect(await host.waitUntilRunning())
        running.cancel()
        try await running.value
        let outcomes = await host.shutdownOutcomes
        #expect(results(outcomes) == ["C stop completed", "B stop timedOut", "A stop completed"])
        #expect(outcomes[1].duration >= .milliseconds(100), "the limit, not the cancellation, ended it")
        guard case .stopped(let failures) = host.status else {
            Issue.record("status \(host.status)")
            return
        }
        #expect(failures.map(\.module) == ["B"])
    }
}
