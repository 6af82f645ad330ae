import Testing
@testable import ModuleRecords
@testable import SectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// Concurrency, signals and time limits under pressure: what must still hold
/// is that every other module got its events, shutdown ran in reverse order,
/// and no module was started or stopped twice.
@Suite(.serialized) struct StressTests {
    let journal = Journal()

    /// How many times each module ran `phase`, by name.
    func counts(_ phase: String) -> [String: Int] {
        journal.modules(phase).reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    @Test func dispatchingFromManyTasksWhileModulesAreRemoved() async throws {
        let names = (0..<16).map { "S" + (($0 < 10) ? "0" : "") + String($0) }
        let host = ModuleHost(registry: try declare(names.map { name in
            scripted(name, journal: journal) { $0.onSetUp = { $0.on(Ping.self) { _ in name } } }
        }), configuration: testConfiguration())
        try await host.launch()
        let removed = ["S03", "S07", "S11", "S15"]
        let violations = Journal()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<300 {
                        let report = await host.broadcast(Ping(payload: 0))
                        let answered = report.replies.map(\.module)
                        if report.replies.map(\.reply) != answered || answered != answered.sorted() || !report.failures.isEmpty {
                            violations.add("\(answered)")
                        }
                    }
                }
            }
            group.addTask {
                for name in removed {
                    _ = try? await host.remove(name)
                    await Task.yield()
                }
            }
        }

        #expect(violations.entries.isEmpty)
        #expect(await host.broadcast(Ping(payload: 0)).replies.map(\.module) == names.filter { !removed.contains($0) })
        await host.terminate()
        #expect(counts("stop") == Dictionary(uniqueKeysWithValues: names.map { ($0, 1) }), "each module stopped exactly once")
        #expect(Array(journal.modules("stop").suffix(12)) == names.filter { !removed.contains($0) }.reversed())
        #expect(counts("begin").values.allSatisfy { $0 == 1 }, "nothing started twice")
    }

    @Test func aHandlerThatAlwaysThrowsCostsNobodyElseTheirEvents() async throws {
        let names = ["A", "Thrower", "C", "D"]
        let host = ModuleHost(registry: try declare(names.map { name in
            scripted(name, journal: journal) {
                $0.onSetUp = { context in
                    context.on(Ping.self) { _ in
                        if name == "Thrower" { throw ScriptError(module: name, phase: .start) }
                        return name
                    }
                }
            }
        }), configuration: testConfiguration())
        try await host.launch()
        let violations = Journal()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<250 {
                        let report = await host.broadcast(Ping(payload: 0))
                        if report.replies.map(\.module) != ["A", "C", "D"] || report.failures.map(\.module) != ["Thrower"] {
                            violations.add("\(report.replies.map(\.module)) \(report.failures.map(\.module))")
                        }
                    }
                }
            }
        }
        #expect(violations.entries.isEmpty, "2000 broadcasts: every other module answered, the failure was reported")
        #expect(await host.runningModules == names.sorted(), "a throwing handler does not stop its module")
        await host.terminate()
        #expect(journal.modules("stop") == names.sorted().reversed(), "each stopped once, in reverse start order")
    }

    @Test func aSignalDuringLaunchCancelsTheRunningHookAndCallsNoOther() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.whileStarting = {
                kill(getpid(), SIGTERM)
                try await Task.sleep(for: .seconds(300))  // ends when the launch is cancelled
            } },
            scripted("C", journal: journal),
        ]), configuration: testConfiguration())
        let clock = ContinuousClock()
        let start = clock.now
        try await host.run()
        #expect(start.duration(to: clock.now) < .seconds(120), "B's start was cancelled, not waited for")
        #expect(!journal.entries.contains("start B") && !journal.entries.contains("begin C"), "no hook after the signal")
        #expect(journal.modules("ready").isEmpty)
        #expect(counts("stop") == ["A": 1], "A stopped once; B never said it started")
        guard case .launchFailed(let error) = host.status, error.code == .cancelled else {
            Issue.record("status \(host.status)")
            return
        }
        #expect(error.rollback.map(\.module) == ["A"])
    }

    @Test func aSecondSignalDuringShutdownSkipsTheModulesNotYetStopped() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.hangsInStop = true },
            scripted("C", journal: journal),
            scripted("Last", level: .late, journal: journal) { $0.onSetUp = { _ in } },
        ]), configuration: testConfiguration { $0.stopTimeLimit = .seconds(30) })
        // Once everything is ready, the first SIGTERM; once B is stopping (and
        // hangs), the second.
        let signaller = Task {
            while !journal.entries.contains("ready Last") { try await Task.sleep(for: .milliseconds(5)) }
            kill(getpid(), SIGTERM)
            while !journal.entries.contains("stop B") { try await Task.sleep(for: .milliseconds(5)) }
            kill(getpid(), SIGTERM)
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await host.run()
        try await signaller.value
        #expect(start.duration(to: clock.now) < .seconds(20), "the 30 s stop limit was not waited for")
        let outcomes = await host.shutdownOutcomes
        #expect(outcomes.map(\.module) == ["Last", "C", "B", "A"])
        #expect(outcomes.map(\.resultName) == ["completed", "completed", "cutOff", "skipped"],
                "B was called and cut off while running; A never called")
        #expect(journal.modules("stop") == ["Last", "C", "B"], "A was never asked to stop, nobody twice")
    }

    @Test func aModuleThatHangsInStartFailsTheLaunchWithinItsLimit() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("Hung", journal: journal) { $0.whileStarting = { while true { await sleepIgnoringCancellation(.seconds(60)) } } },
            scripted("Z", journal: journal),
        ]), configuration: testConfiguration { $0.startTimeLimit = .milliseconds(100) })
        do {
            try await host.launch()
            Issue.record("launched")
        } catch {
            guard error.code == .moduleFailed, error.module == "Hung", error.phase == .start,
                  let cause = error.underlying as? HostError else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(cause.code == .timeLimitExceeded && cause.module == "Hung" && cause.limit == .milliseconds(100))
            #expect(error.rollback.map(\.module) == ["A"])
            #expect(error.description.contains("module 'Hung' failed in start: did not finish within 0.1 seconds"))
        }
        #expect(!journal.entries.contains("begin Z"))
        #expect(counts("stop") == ["A": 1])
    }

    @Test func sigtermDuringAReloadThatHangsStillShutsDown() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("Stuck", journal: journal) { $0.hangsInReload = true },
            scripted("Z", journal: journal),
        ]), configuration: testConfiguration())
        let signaller = Task {
            await journal.waitFor("ready Z")
            kill(getpid(), SIGHUP)
            await journal.waitFor("reload Stuck")
            kill(getpid(), SIGTERM)
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await host.run()
        await signaller.value
        #expect(start.duration(to: clock.now) < .seconds(5), "the hung reload was cut off at once")
        let outcomes = await host.shutdownOutcomes
        #expect(outcomes.map(\.module) == ["Z", "Stuck", "A"])
        #expect(outcomes.allSatisfy { if case .completed = $0.result { true } else { false } })
        #expect(counts("stop") == ["A": 1, "Stuck": 1, "Z": 1])
        #expect(!journal.entries.contains("reload Z"), "no reload hook is called once shutdown begins")
    }
}
