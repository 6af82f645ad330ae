import SectionRegistryTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ModuleRecords
@testable import SectionRegistry

/// The host a test's modules ask things of: set once the host is made.
/// Weak: the host holds the modules, whose closures hold this box; the
/// test holds the host while it runs.
final class HostBox: Sendable {
    private struct Reference {
        weak var host: ModuleHost?
    }

    private let reference = Locked(Reference())

    var value: ModuleHost {
        reference.withLock { $0.host! }
    }

    func set(_ value: ModuleHost) {
        reference.withLock { $0.host = value }
    }
}

/// A module whose `run` and hooks do what the test says, with the host at
/// hand: the requests real modules make of their host.
struct AskingModule: AppModule {
    let name: String
    let journal: Journal
    var onStart: @Sendable (ModuleContext) async throws -> Void = { _ in }
    var onStop: @Sendable () async -> Void = {}
    var work: (@Sendable (ModuleContext) async throws -> Void)?

    func start(_ context: ModuleContext) async throws {
        journal.add("start \(name)")
        try await onStart(context)
    }

    func run(_ context: ModuleContext) async throws {
        guard let work else { return }
        journal.add("run \(name)")
        try await work(context)
        journal.add("returned \(name)")
    }

    func stop(_ context: ModuleContext) async throws {
        journal.add("stop \(name)")
        await onStop()
    }
}

func asking(
    _ name: String, after: [String] = [], journal: Journal, _ script: @escaping @Sendable (inout AskingModule) -> Void = { _ in }
) -> ModuleDescriptor {
    ModuleDescriptor(name: name, level: .feature, priority: 0, after: after, startsConcurrently: false) {
        var module = AskingModule(name: name, journal: journal)
        script(&module)
        return module
    }
}

/// Each case of the engine review (issue 26): a module that makes a
/// request of its own host, and what a stop does to what is under way.
/// Each is a race; each test runs rounds with varied timings.
@Suite(.timeLimit(.minutes(15))) struct ModuleRequestTests {
    static let rounds = 0..<4
    /// Far longer than the suite's 15-minute time limit (itself generous:
    /// the whole suite's process tests can starve the cooperative pool for
    /// minutes on 2 cores): a case that waits for it
    /// (the bug each test is for) fails by that limit, whatever the load;
    /// no test measures how long a case took.
    static let longLimit = Duration.seconds(3600)

    func outcomes(_ list: [HookOutcome]) -> [String] {
        list.map { "\($0.module) \($0.phase) \($0.resultName)" }
    }

    // Case 1: a run that calls terminate() is a normal shutdown, at once.
    @Test(arguments: rounds) func aRunThatCallsTerminateShutsDownCleanlyAtOnce(round: Int) async throws {
        let journal = Journal()
        let box = HostBox()
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            asking("Worker", journal: journal) { module in
                module.work = { context in
                    // A run begins during the launch: a terminate() then
                    // would cancel the launch. This one is for the running host.
                    _ = await box.value.waitUntilRunning()
                    try await Task.sleep(for: .milliseconds(round * 3))
                    _ = await box.value.terminate()
                    try await context.cancelOnDrain { try await Task.sleep(for: .seconds(60)) }  // until the drain cancels it
                }
            },
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        box.set(host)
        try await host.launch()
        #expect(await host.waitUntilFinal().isFinal)
        guard case .stopped(let failures) = host.status else { return }
        #expect(failures.isEmpty, "\(failures)")
        #expect(journal.modules("stop") == ["Worker", "Store"])
    }

    // Case 1: remove(self) from a run ends the run and stops the module, no cut-off.
    @Test(arguments: rounds) func aRunThatRemovesItsOwnModuleEndsAndStops(round: Int) async throws {
        let journal = Journal()
        let box = HostBox()
        let removed = Locked<HookOutcome?>(nil)
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            asking("Worker", journal: journal) { module in
                module.work = { _ in
                    _ = await box.value.waitUntilRunning()
                    try await Task.sleep(for: .milliseconds(round * 3))
                    let outcome = try await box.value.remove("Worker")
                    removed.withLock { $0 = outcome.last }
                }
            },
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        box.set(host)
        try await host.launch()
        while removed.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(removed.withLock { $0.map { "\($0.module) \($0.phase) \($0.resultName)" } } == "Worker stop completed")
        #expect(await host.runningModules == ["Store"])
        let shutdown = await host.terminate()
        #expect(outcomes(shutdown) == ["Store stop completed"])
    }

    // Case 1: a stop hook that calls terminate() skips no other stop hook.
    @Test(arguments: rounds) func aStopHookThatCallsTerminateSkipsNothing(round: Int) async throws {
        let journal = Journal()
        let box = HostBox()
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            asking("Admin", journal: journal) { module in
                module.onStop = {
                    try? await Task.sleep(for: .milliseconds(round * 2))
                    _ = await box.value.terminate()
                }
            },
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        box.set(host)
        try await host.launch()
        let shutdown = await host.terminate()
        #expect(outcomes(shutdown) == ["Admin stop completed", "Store stop completed"])
    }

    // Case 2: terminate() from a start hook cancels the launch and stops what
    // started, cleanly; the message says so from the results.
    @Test(arguments: rounds) func terminateFromAStartHookStopsWhatStartedCleanly(round: Int) async throws {
        let journal = Journal()
        let box = HostBox()
        let host = ModuleHost(registry: try declare([
            scripted("A", level: .service, journal: journal),
            asking("B", journal: journal) { module in
                module.onStart = { _ in
                    try await Task.sleep(for: .milliseconds(round * 2))
                    _ = await box.value.terminate()
                }
            },
            scripted("C", level: .late, journal: journal),
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        box.set(host)
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .cancelled)
        // B's start returned: B started, and is stopped again with A.
        #expect(outcomes(error?.rollback ?? []) == ["B stop completed", "A stop completed"])
        #expect(error?.description == "SectionRegistry: launch cancelled (stopped again: B, A)")
        #expect(!journal.entries.contains("start C"))
        #expect(host.status.isFinal)
    }

    // Case 3: a request from a setUp, start or ready hook is refused at
    // once; the launch goes on.
    @Test(arguments: [LifecyclePhase.setUp, .start, .ready]) func aRequestFromALaunchHookIsRefusedAtOnce(phase: LifecyclePhase) async throws {
        let journal = Journal()
        let box = HostBox()
        let refusals = Locked<[String]>([])
        let ask: @Sendable () async -> Void = {
            do {
                _ = try await box.value.load([scripted("Extra", journal: journal)], from: "/plugins/extra.so")
                refusals.withLock { $0.append("loaded") }
            } catch let error as HostError {
                refusals.withLock { $0.append("\(error.code)") }
            } catch {
                refusals.withLock { $0.append("\(error)") }
            }
            do {
                try await box.value.remove("A")
            } catch let error as HostError {
                refusals.withLock { $0.append("\(error.code)") }
            } catch {
                refusals.withLock { $0.append("\(error)") }
            }
        }
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            ModuleDescriptor(name: "Loader", level: .late, priority: 0, after: [], startsConcurrently: false) {
                HookAsker(phase: phase, ask: ask)
            },
        ]), configuration: testConfiguration { $0.startTimeLimit = nil })
        box.set(host)
        try await host.launch()
        #expect(refusals.withLock { $0 } == ["calledFromHook", "calledFromHook"])
        #expect(await host.runningModules == ["A", "Loader"])
        await host.terminate()
    }

    // A module with no host at hand (under ModuleHost.main): an admin
    // handler asks through its context; the shutdown is normal and clean.
    @Test func anAdminHandlerAsksForTheShutdownThroughItsContext() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            scripted("Admin", journal: journal) { module in
                module.onSetUp = { context in
                    context.on(ShutdownCommand.self) { _ in
                        context.requestShutdown()
                        journal.add("asked")
                    }
                }
            },
            working("Worker", journal: journal) { try await Task.sleep(for: .seconds(60)) },
        ]), configuration: testConfiguration { $0.servesSignals = false })
        async let running: Void = host.run()
        #expect(await host.waitUntilRunning())
        let report = await host.broadcast(ShutdownCommand())
        #expect(report.answers.map { "\($0.module) \($0.outcome)" } == ["Admin handled: ()"])
        try await running
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(failures.isEmpty)
        #expect(journal.modules("stop") == ["Worker", "Admin", "Store"])
    }

    // Case 4: terminate() before launch() ends in a final status.
    @Test func terminateBeforeLaunchIsFinal() async throws {
        let host = ModuleHost(registry: try declare([scripted("A", journal: Journal())]), configuration: testConfiguration())
        let updates = host.statusUpdates
        #expect(await host.terminate().isEmpty)
        #expect(host.status.isFinal)
        #expect(await host.waitUntilRunning() == false)
        var seen: [String] = []
        for await status in updates { seen.append(status.description) }
        #expect(seen == ["idle", "stopped"])
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .cancelled)
    }

    // Case 5: a dispatch under way skips a module stopped meanwhile, and
    // reaches none once the host has stopped.
    @Test(arguments: rounds) func aDispatchUnderWaySkipsModulesThatStopped(round: Int) async throws {
        let journal = Journal()
        let gate = Gate()
        let host = ModuleHost(registry: try declare([
            scripted("A", level: .service, journal: journal) { module in
                module.onSetUp = { context in
                    context.on(Ping.self) { _ in
                        journal.add("A handled")
                        await gate.pass()
                        return nil
                    }
                }
            },
            scripted("B", journal: journal) { module in
                module.onSetUp = { context in context.on(Ping.self) { _ in journal.add("B handled"); return "b" } }
            },
        ]), configuration: testConfiguration())
        try await host.launch()
        async let report = host.broadcast(Ping(payload: round))
        await journal.waitFor("A handled")
        if round % 2 == 0 {
            try await host.remove("B")
        } else {
            await host.terminate()
        }
        gate.open()
        let answers = await report.answers.map { "\($0.module) \($0.outcome)" }
        #expect(answers == ["A declined", "B not asked: its module had stopped"])
        #expect(!journal.entries.contains("B handled"))
        if round % 2 == 0 { await host.terminate() }
        let after = await host.broadcast(Ping(payload: 0))
        #expect(after.replies.isEmpty && !journal.entries.contains("B handled"))
    }

    // Case 6: a start hook that ends after its time limit registers nothing.
    @Test func aStartHookLeftBehindCannotRegister() async throws {
        let journal = Journal()
        let late = Gate()
        let log = LogRecorder()
        let host = ModuleHost(registry: try declare([
            asking("Late", journal: journal) { module in
                module.onStart = { context in
                    await late.pass()  // past its limit, ignoring its cancellation
                    context.on(Ping.self) { _ in "late" }
                    do {
                        try context.register(LateService.self) { LateService() }
                        journal.add("registered")
                    } catch let error as ServiceError {
                        journal.add("refused \(error.code)")
                    }
                }
            },
        ]), configuration: testConfiguration {
            $0.startTimeLimit = .milliseconds(50)
            $0.log = log.handler(logLevel: .warning)
        })
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .moduleFailed)
        late.open()
        await journal.waitFor("refused moduleStopped")
        let report = await host.broadcast(Ping(payload: 0))
        #expect(report.replies.isEmpty)
        #expect(log.lines.filter { $0.message.contains("after it stopped") }.count == 1, "logged once: \(log.lines.map(\.message))")
    }

    // Case 7: a second stop cuts the wait for runs short.
    @Test(arguments: rounds) func aSecondStopCutsTheWaitForRunsShort(round: Int) async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([
            working("Deaf", journal: journal) { while true { await sleepIgnoringCancellation(.seconds(60)) } },
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        try await host.launch()
        await journal.waitFor("run Deaf")
        async let shutdown = host.terminate()
        try await Task.sleep(for: .milliseconds(50 + round * 10))
        host.requestStop(.signal(SIGTERM))
        let result = await shutdown  // the second stop ended the wait
        #expect(outcomes(result) == ["Deaf run cutOff", "Deaf stop skipped"])
    }

    // Case 8: the cancellation of terminate()'s caller is no second stop.
    @Test(arguments: rounds) func aCancelledTerminateCallerDoesNotCutShutdownShort(round: Int) async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal) { $0.whileStopping = { try await Task.sleep(for: .milliseconds(20)) } },
            working("Worker", journal: journal) { try await Task.sleep(for: .seconds(60)) },
        ]), configuration: testConfiguration { $0.stopTimeLimit = Self.longLimit })
        try await host.launch()
        await journal.waitFor("run Worker")
        let caller = Task { await host.terminate() }
        try await Task.sleep(for: .milliseconds(round * 2))
        caller.cancel()
        _ = await caller.value
        guard case .stopped(let failures) = await host.waitUntilFinal() else { Issue.record("\(host.status)"); return }
        #expect(failures.isEmpty, "\(failures)")
        #expect(journal.modules("stop") == ["Worker", "Store"])
    }

    // Case 9: a load stopped while it waits for its turn is cancelled.
    @Test func aLoadStoppedBeforeItsTurnIsCancelled() async throws {
        let journal = Journal()
        let gate = Gate()
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal) { $0.whileStarting = { await gate.pass() } },
        ]), configuration: testConfiguration())
        async let launch: Void = host.launch()
        await journal.waitFor("begin A")
        let load = Task { () async throws(HostError) -> [String] in try await host.load([scripted("P", journal: journal)], from: "/p.so") }
        try await Task.sleep(for: .milliseconds(20))
        async let shutdown = host.terminate()
        gate.open()
        _ = try? await launch
        let loaded = await load.result
        _ = await shutdown
        guard case .failure(let error as HostError) = loaded else { Issue.record("loaded: \(loaded)"); return }
        #expect(error.code == .cancelled && error.plugin == "/p.so")
    }
}

struct LateService: Sendable {}
struct ShutdownCommand: ModuleEvent {}

/// A module that asks its host for something from the hook of `phase`.
private struct HookAsker: AppModule {
    let phase: LifecyclePhase
    let ask: @Sendable () async -> Void

    func setUp(_ context: ModuleContext) async throws { if phase == .setUp { await ask() } }
    func start(_ context: ModuleContext) async throws { if phase == .start { await ask() } }
    func ready(_ context: ModuleContext) async throws { if phase == .ready { await ask() } }
}
