#if canImport(Glibc)
import Glibc
#endif
import SectionRegistryTesting
import Testing
@testable import SectionRegistry

/// The shutdown's deploy sequence (issue 39): readiness withdrawn at once,
/// the lame-duck delay, every module's intake stopped, then the drain in
/// reverse start order; a second signal cuts it short; every stop that
/// drains goes through it.
@Suite(.timeLimit(.minutes(5))) struct DeploySequenceTests {
    /// A module whose `run` takes work from outside: it writes its intake
    /// stop (with what the host said of its readiness then), its drain and
    /// its stop hook to the journal.
    struct Server: AppModule {
        let name: String
        let journal: Journal
        let clock: StepClock
        /// Called in the run, before it serves.
        var beforeServing: @Sendable (ModuleContext) async throws -> Void = { _ in }
        /// Never returns from its intake stop, and ignores cancellation.
        var intakeHangs = false

        func run(_ context: ModuleContext) async throws {
            try await beforeServing(context)
            let (drained, drain) = AsyncStream.makeStream(of: Void.self)
            await context.withDrainHandler {
                for await _ in drained {}
            } onIntakeStop: {
                clock.mark("intake \(name)")
                journal.add("intake \(name), host ready: \(context.isHostReady)")
                while intakeHangs { await sleepIgnoringCancellation(.seconds(60)) }
            } onDrain: {
                journal.add("drain \(name)")
                drain.finish()
            }
        }

        func stop(_ context: ModuleContext) async throws {
            journal.add("stop \(name)")
        }
    }

    /// When each step happened.
    final class StepClock: Sendable {
        private let marks = Locked<[String: ContinuousClock.Instant]>([:])

        func mark(_ step: String) {
            marks.withLock { $0[step] = .now }
        }

        subscript(step: String) -> ContinuousClock.Instant? {
            marks.withLock { $0[step] }
        }
    }

    static func servers(
        journal: Journal, clock: StepClock, _ script: @escaping @Sendable (inout Server) -> Void = { _ in }
    ) throws -> ModuleRegistry {
        try declare(["Listener", "Worker"].enumerated().map { index, name in
            ModuleDescriptor(name: name, after: index == 0 ? [] : ["Listener"]) {
                var server = Server(name: name, journal: journal, clock: clock)
                script(&server)
                return server
            }
        })
    }

    @Test func readinessThenTheDelayThenEveryIntakeThenTheDrain() async throws {
        let journal = Journal()
        let clock = StepClock()
        let host = ModuleHost(registry: try Self.servers(journal: journal, clock: clock), configuration: testConfiguration {
            $0.lameDuckDelay = .milliseconds(300)
        })
        try await host.launch()
        #expect(host.isReady)
        let began = ContinuousClock.now
        host.requestStop(.terminate)
        #expect(!host.isReady, "readiness is withdrawn when the stop is asked for, before anything stops")
        await host.terminate()

        let entries = journal.entries
        #expect(Set(entries.prefix(2)) == ["intake Listener, host ready: false", "intake Worker, host ready: false"],
                "every intake stops, the host no longer ready, before any run drains")
        #expect(Array(entries.dropFirst(2)) == ["drain Worker", "drain Listener", "stop Worker", "stop Listener"])
        let firstIntake = try #require([clock["intake Listener"], clock["intake Worker"]].compactMap { $0 }.min())
        #expect(firstIntake - began >= .milliseconds(300), "the lame-duck delay passes before the intake stops")
        #expect("\(host.status)" == "stopped")
    }

    @Test func aSecondSignalCutsTheDelayShort() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try Self.servers(journal: journal, clock: StepClock()), configuration: testConfiguration {
            $0.servesSignals = false  // the signals are handed over below, where the signal loop would
            $0.lameDuckDelay = .seconds(3600)
        })
        let running = Task { try await host.run() }
        #expect(await host.waitUntilRunning())
        host.requestStop(.signal(SIGTERM))
        for await status in host.statusUpdates {
            if case .stopping = status { break }
        }
        host.requestStop(.signal(SIGTERM))
        try await running.value
        #expect(!journal.entries.contains { $0.hasPrefix("intake") }, "cut short: no intake is stopped, no run asked to drain")
        guard case .stopped(let failures) = host.status else {
            Issue.record("not stopped: \(host.status)")
            return
        }
        #expect(failures.map { "\($0.module) \($0.phase) \($0.resultName)" } == ["Worker stop skipped", "Listener stop skipped"])
    }

    @Test func aModulesRequestGoesThroughIt() async throws {
        let journal = Journal()
        let registry = try Self.servers(journal: journal, clock: StepClock()) { server in
            guard server.name == "Worker" else { return }
            server.beforeServing = { context in
                try await Task.sleep(for: .milliseconds(50))
                context.requestShutdown()
            }
        }
        let host = ModuleHost(registry: registry, configuration: testConfiguration { $0.servesSignals = false })
        try await host.run()
        let entries = journal.entries
        #expect(Set(entries.prefix(2)) == ["intake Listener, host ready: false", "intake Worker, host ready: false"])
        #expect(Array(entries.dropFirst(2)) == ["drain Worker", "drain Listener", "stop Worker", "stop Listener"])
        #expect(host.stopReason == .moduleRequest("Worker"))
    }

    @Test func aRemovalStopsThatModulesIntakeBeforeItsDrain() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try Self.servers(journal: journal, clock: StepClock()), configuration: testConfiguration())
        try await host.launch()
        try await host.remove("Worker")
        #expect(journal.entries == ["intake Worker, host ready: true", "drain Worker", "stop Worker"], "the host goes on: still ready")
        await host.terminate()
    }

    @Test func anIntakeThatDoesNotStopIsLeftBehindAtTheDrainLimit() async throws {
        let journal = Journal()
        let log = LogRecorder()
        let registry = try Self.servers(journal: journal, clock: StepClock()) { server in
            server.intakeHangs = server.name == "Listener"
        }
        let host = ModuleHost(registry: registry, configuration: testConfiguration {
            $0.drainTimeLimit = .milliseconds(300)
            $0.log = log.handler(logLevel: .warning)
        })
        try await host.launch()
        await host.terminate()  // returns: the shutdown is not held by the intake stop
        #expect(log.lines.contains { $0.message.hasPrefix("SectionRegistry: the intake of 'Listener' did not stop within the drain limit") })
        // The limit covers the intake and the drain together: past it, the
        // runs are cancelled without being asked, and the stop is not clean.
        guard case .stopped(let failures) = host.status else {
            Issue.record("not stopped: \(host.status)")
            return
        }
        #expect(failures.map { "\($0.module) \($0.phase) \($0.resultName)" } == ["Worker run timedOut", "Listener run timedOut"])
    }
}

extension DeploySequenceTests {
    /// Writes down `context.drainTimeLeft` when its run begins and when it
    /// is asked to drain, then takes `hold` to drain.
    struct LimitReader: AppModule {
        let readings: Locked<[String: Duration]>
        var hold: Duration = .zero

        func run(_ context: ModuleContext) async throws {
            readings.withLock { $0["\(context.moduleName) at run"] = context.drainTimeLeft }
            await context.servesUntilDrained()
            readings.withLock { $0["\(context.moduleName) at drain"] = context.drainTimeLeft }
            try await Task.sleep(for: hold)
        }
    }

    /// Nothing is left to read before the shutdown; at its drain, a run
    /// that drains after another reads the limit less what the other took.
    @Test func aRunThatDrainsLateReadsHowMuchOfTheDrainLimitIsLeft() async throws {
        let readings = Locked<[String: Duration]>([:])
        try await withTestHost([
            ModuleDescriptor(name: "Late") { LimitReader(readings: readings) },
            // Started after Late: drained before it.
            ModuleDescriptor(name: "Early", level: .feature, priority: 0, after: ["Late"], startsConcurrently: false) {
                LimitReader(readings: readings, hold: .milliseconds(300))
            },
        ], configuration: { $0.drainTimeLimit = .seconds(60) }) { test in
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        let read = readings.withLock { $0 }
        #expect(read["Late at run"] == nil && read["Early at run"] == nil, "\(read)")
        let early = try #require(read["Early at drain"]), late = try #require(read["Late at drain"])
        // A wide margin: a loaded CI machine has stalled a test's tasks
        // for over a second; what is checked is that the limit is read.
        #expect(early <= .seconds(60) && early > .seconds(30), "\(read)")
        #expect(late <= early - .milliseconds(300), "Early's 300 ms are gone: \(read)")
    }
}

extension DeploySequenceTests {
    /// A server whose balancer takes `notice` to see it not ready: its
    /// `run` holds the lame-duck step that long, as `serve(_:health:)` does
    /// for the balancers probing it (the Hummingbird trait).
    struct Watched: AppModule {
        let clock: StepClock
        let notice: Duration

        func run(_ context: ModuleContext) async throws {
            let (drained, drain) = AsyncStream.makeStream(of: Void.self)
            await context.life.withLameDuckWait {
                await context.withDrainHandler {
                    for await _ in drained {}
                } onIntakeStop: {
                    clock.mark("intake")
                } onDrain: {
                    drain.finish()
                }
            } until: {
                try? await Task.sleep(for: notice)
                clock.mark("noticed")
            }
        }
    }

    /// No lame-duck delay set: the step lasts until the server's wait
    /// returns, and only then does its intake stop.
    @Test func aServersLameDuckWaitHoldsTheStepWithNoDelaySet() async throws {
        let clock = StepClock()
        let began = Locked<ContinuousClock.Instant?>(nil)
        try await withTestHost([ModuleDescriptor(name: "Watched") { Watched(clock: clock, notice: .milliseconds(300)) }]) { test in
            began.withLock { $0 = .now }
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        let start = try #require(began.withLock { $0 })
        let noticed = try #require(clock["noticed"]), intake = try #require(clock["intake"])
        #expect(noticed - start >= .milliseconds(300), "the wait ran its course")
        #expect(intake >= noticed, "the intake stops once the balancer noticed")
    }
}
