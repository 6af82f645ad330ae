import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ModuleRecords
@testable import SectionRegistry

/// A module whose `run` serves until the host asks it to drain, then
/// finishes its work (`drain`) and returns: a server, a client.
struct DrainingModule: AppModule {
    let name: String
    let journal: Journal
    var reportsReady = false
    /// What the run does before it reports ready (a bind); throws to fail.
    var beforeReady: @Sendable () async throws -> Void = {}
    /// What the run does once asked to drain.
    var drain: @Sendable () async throws -> Void = {}
    /// Checked in start: what the modules before it serve must be there.
    var whileStarting: @Sendable (ModuleContext) async throws -> Void = { _ in }

    var runReportsReady: Bool { reportsReady }

    func start(_ context: ModuleContext) async throws {
        try await whileStarting(context)
        journal.add("start \(name)")
    }

    func run(_ context: ModuleContext) async throws {
        journal.add("run \(name)")
        try await beforeReady()
        if reportsReady {
            journal.add("ready \(name)")
            context.reportReady()
        }
        await context.servesUntilDrained()
        // Asked to drain, or cancelled without being asked (a second stop).
        journal.add(context.life.isDrainRequested ? "drain \(name)" : "cancelled \(name)")
        try await drain()
        journal.add("drained \(name)")
    }

    func stop(_ context: ModuleContext) async throws {
        journal.add("stop \(name)")
    }
}

extension ModuleContext {
    /// What a server does, with the public API: serves until the host asks
    /// it to drain.
    func servesUntilDrained() async {
        try? await cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
    }
}

func draining(
    _ name: String, level: ModuleLevel = .feature, after: [String] = [], journal: Journal,
    _ script: @escaping @Sendable (inout DrainingModule) -> Void = { _ in }
) -> ModuleDescriptor {
    ModuleDescriptor(name: name, level: level, priority: 0, after: after, startsConcurrently: false) {
        var module = DrainingModule(name: name, journal: journal)
        script(&module)
        return module
    }
}

/// Issue 27: long-running work drains in dependency order, begins when its
/// module has started, and may say when it is ready.
@Suite(.timeLimit(.minutes(15))) struct RunDrainTests {
    let journal = Journal()

    /// Limits far past the suite's own: a drain or a stop that had to wait
    /// for one is the failure, whatever the machine's load.
    func configuration(_ adjust: (inout HostConfiguration) -> Void = { _ in }) -> HostConfiguration {
        testConfiguration {
            $0.drainTimeLimit = .seconds(3600)
            $0.stopTimeLimit = .seconds(3600)
            adjust(&$0)
        }
    }

    func outcomes(_ list: [HookOutcome]) -> [String] {
        list.map { "\($0.module) \($0.phase) \($0.resultName)" }
    }

    @Test func runsDrainInReverseStartOrderEachAfterTheOnesAfterItEnded() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal) { $0.drain = { try await Task.sleep(for: .milliseconds(30)) } },
            draining("Notes", after: ["Database"], journal: journal) { $0.drain = { try await Task.sleep(for: .milliseconds(30)) } },
            draining("HTTP", level: .late, journal: journal) { $0.drain = { try await Task.sleep(for: .milliseconds(60)) } },
        ]), configuration: configuration())
        try await host.launch()
        for name in ["Database", "Notes", "HTTP"] { await journal.waitFor("run \(name)") }
        let shutdown = await host.terminate()
        #expect(outcomes(shutdown) == ["HTTP stop completed", "Notes stop completed", "Database stop completed"])
        let drains = journal.entries.filter { $0.hasPrefix("drain") || $0.hasPrefix("stop") }
        #expect(drains == [
            "drain HTTP", "drained HTTP", "drain Notes", "drained Notes", "drain Database", "drained Database",
            "stop HTTP", "stop Notes", "stop Database",
        ])
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(failures.isEmpty)
    }

    @Test func aDrainPastItsDeadlineIsCancelledAndMakesTheShutdownUnclean() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            draining("HTTP", level: .late, journal: journal) { $0.drain = { try await Task.sleep(for: .seconds(60)) } },
        ]), configuration: configuration { $0.drainTimeLimit = .milliseconds(100) })
        try await host.launch()
        await journal.waitFor("run HTTP")
        let shutdown = await host.terminate()
        // HTTP took the whole drain: past the deadline, both runs were
        // cancelled; neither ended cleanly, Database never had its turn.
        #expect(outcomes(shutdown) == ["HTTP run timedOut", "Database run timedOut", "HTTP stop completed", "Database stop completed"])
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(failures.map { "\($0.module) \($0.phase)" } == ["HTTP run", "Database run"])
    }

    @Test(arguments: 0..<3) func aSecondStopDuringTheDrainCancelsAtOnce(round: Int) async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            draining("HTTP", level: .late, journal: journal) { $0.drain = { try await Task.sleep(for: .seconds(60)) } },
        ]), configuration: configuration())  // only the second stop ends the drain
        try await host.launch()
        await journal.waitFor("run HTTP")
        async let shutdown = host.terminate()
        await journal.waitFor("drain HTTP")
        try await Task.sleep(for: .milliseconds(round * 5))
        host.requestStop(.signal(SIGTERM))
        let result = await shutdown
        // Both runs were cancelled; what had not ended then is cut off, and
        // the stop hooks left are skipped.
        #expect(!journal.entries.contains("drained HTTP"))
        #expect(result.allSatisfy { $0.phase == .stop ? $0.resultName == "skipped" : true }, "\(outcomes(result))")
        // HTTP ended once cancelled: no time limit was up, nothing was left
        // behind; the skipped stop hooks say the shutdown was cut short.
        #expect(!result.contains { $0.phase == .run }, "\(outcomes(result))")
    }

    @Test func aRunBeginsBeforeTheModulesAfterItStart() async throws {
        let serving = Locked(false)
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal) { module in
                module.reportsReady = true
                module.beforeReady = {
                    try await Task.sleep(for: .milliseconds(20))  // connecting
                    serving.withLock { $0 = true }
                }
            },
            draining("Notes", after: ["Database"], journal: journal) { module in
                module.whileStarting = { _ in
                    // A migration: it needs the client's run going.
                    guard serving.withLock({ $0 }) else { throw Jammed() }
                }
            },
        ]), configuration: configuration())
        try await host.launch()
        let entries = journal.entries
        #expect(entries.firstIndex(of: "ready Database")! < entries.firstIndex(of: "start Notes")!)
        await host.terminate()
    }

    @Test func theHostIsRunningOnlyOnceEveryReportingRunIsReady() async throws {
        let bind = Gate()
        let host = ModuleHost(registry: try declare([
            draining("HTTP", level: .late, journal: journal) { module in
                module.reportsReady = true
                module.beforeReady = { await bind.pass() }
            },
        ]), configuration: configuration())
        let launch = Task { try await host.launch() }
        await journal.waitFor("run HTTP")
        try await Task.sleep(for: .milliseconds(30))
        #expect(host.status.description == "launching", "not running before the bind")
        bind.open()
        try await launch.value
        #expect(host.status.description == "running")
        #expect(journal.entries.contains("ready HTTP"))
        await host.terminate()
    }

    @Test func aRunThatFailsBeforeItIsReadyFailsTheLaunch() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            draining("HTTP", level: .late, journal: journal) { module in
                module.reportsReady = true
                module.beforeReady = { throw PortInUse() }
            },
        ]), configuration: configuration())
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .moduleFailed && error?.module == "HTTP" && error?.phase == .run)
        #expect(error?.description == "SectionRegistry: module 'HTTP' failed in run: address already in use (stopped again: Database)")
        #expect(await host.waitUntilRunning() == false)
        #expect(journal.modules("stop") == ["HTTP", "Database"])
    }

    @Test func removingAModuleDrainsItsRun() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            draining("Worker", journal: journal),
        ]), configuration: configuration())
        try await host.launch()
        await journal.waitFor("run Worker")
        let outcomes = try await host.remove("Worker")
        #expect(outcomes.map { "\($0.module) \($0.phase) \($0.resultName)" } == ["Worker stop completed"])
        #expect(journal.entries.suffix(3) == ["drain Worker", "drained Worker", "stop Worker"])
        #expect(!journal.entries.contains("drain Database"))
        await host.terminate()
    }

    @Test func aRunThatNeverLooksForTheDrainEndsByCancellationAsBefore() async throws {
        let host = ModuleHost(registry: try declare([
            working("Ticker", journal: journal),
        ]), configuration: configuration())
        try await host.launch()
        await journal.waitFor("run Ticker")  // cancelled at once, or the suite's limit fails it
        let shutdown = await host.terminate()
        #expect(outcomes(shutdown) == ["Ticker stop completed"])
        #expect(journal.entries.contains("cancelled Ticker"))
    }
}

struct PortInUse: Error, CustomStringConvertible {
    var description: String { "address already in use" }
}
