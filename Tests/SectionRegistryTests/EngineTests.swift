import Foundation
import SectionRegistryTesting
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// A module with long-running work: its `run` does what `work` says, and the
/// journal says when it began and how it ended.
struct WorkingModule: AppModule {
    let name: String
    let journal: Journal
    var work: @Sendable () async throws -> Void = { while true { try await Task.sleep(for: .seconds(60)) } }
    /// Whether the work ends by cancellation when asked to drain
    /// (`cancelOnDrain`); `false`: it hears nothing, and holds the drain.
    var endsOnDrain = true

    func run(_ context: ModuleContext) async throws {
        journal.add("run \(name)")
        do {
            if endsOnDrain { try await context.cancelOnDrain(work) } else { try await work() }
            journal.add("returned \(name)")
        } catch {
            journal.add(error is CancellationError ? "cancelled \(name)" : "threw \(name)")
            throw error
        }
    }

    func stop(_ context: ModuleContext) async throws {
        journal.add("stop \(name)")
    }
}

func working(
    _ name: String, after: [String] = [], journal: Journal, endsOnDrain: Bool = true,
    work: (@Sendable () async throws -> Void)? = nil
) -> ModuleDescriptor {
    ModuleDescriptor(name: name, level: .feature, priority: 0, after: after, startsConcurrently: false) {
        var module = WorkingModule(name: name, journal: journal)
        module.endsOnDrain = endsOnDrain
        if let work { module.work = work }
        return module
    }
}

struct Jammed: Error, CustomStringConvertible {
    var description: String { "jammed" }
}

/// The host's engine: the `run` hook, and each case of the lifecycle review
/// (issue 19), which failed on the engine before it.
@Suite struct EngineTests {
    let journal = Journal()

    // MARK: The run hook

    @Test func runBeginsOnceItsModuleStartedAndEndsByCancellationBeforeTheStopHooks() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            working("Ticker", after: ["Store"], journal: journal),
            scripted("Late", level: .late, journal: journal),
        ]), configuration: testConfiguration())
        try await host.launch()
        await journal.waitFor("run Ticker")
        let outcomes = await host.terminate()
        #expect(outcomes.map(\.module) == ["Late", "Ticker", "Store"])
        let entries = journal.entries
        #expect(entries.firstIndex(of: "cancelled Ticker")! < entries.firstIndex(of: "stop Late")!, "every run ends before the first stop hook")
        #expect(journal.modules("stop") == ["Late", "Ticker", "Store"])
        #expect(host.status.description == "stopped")
    }

    @Test func onlyModulesThatWriteRunHaveOne() {
        #expect(!ScriptedModule(name: "A", journal: journal)._hasRunHook)
        #expect(WorkingModule(name: "B", journal: journal)._hasRunHook)
    }

    @Test func aRunThatReturnsLeavesTheModuleUpUntilShutdown() async throws {
        let host = ModuleHost(registry: try declare([working("Once", journal: journal) {}]), configuration: testConfiguration())
        try await host.launch()
        await journal.waitFor("returned Once")
        #expect(await host.runningModules == ["Once"])
        #expect(host.status.description == "running")
        await host.terminate()
        #expect(journal.modules("stop") == ["Once"])
    }

    @Test func aRunThatThrowsShutsEveryModuleDownAndRunThrowsIt() async throws {
        let log = LogRecorder()
        let box = HostBox()
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            working("Ticker", after: ["Store"], journal: journal) {
                // After the launch: during it, the failure fails the launch.
                _ = await box.value.waitUntilRunning()
                try await Task.sleep(for: .milliseconds(20))
                throw Jammed()
            },
        ]), configuration: testConfiguration {
            $0.servesSignals = false
            $0.log = log.handler(logLevel: .info)
        })
        box.set(host)
        let error = await #expect(throws: HostError.self) { try await host.run() }
        #expect(error?.code == .moduleFailed && error?.module == "Ticker" && error?.phase == .run)
        #expect(error?.description == "SectionRegistry: module 'Ticker' failed in run: jammed (stopped: Ticker, Store)")
        #expect(journal.modules("stop") == ["Ticker", "Store"])
        guard case .stopped(let failures) = host.status else {
            Issue.record("status \(host.status)")
            return
        }
        #expect(failures.map(\.description).first?.hasPrefix("Ticker run: failed after") == true)
        #expect(log.lines.contains { $0.level == .error && $0.message.hasPrefix("SectionRegistry: module 'Ticker' failed in run, stopping every module") })
    }

    @Test func aRunThatIgnoresItsCancellationIsCutOffAndItsModuleStillStops() async throws {
        let host = ModuleHost(registry: try declare([
            working("Deaf", journal: journal) { while true { await sleepIgnoringCancellation(.seconds(60)) } },
        ]), configuration: testConfiguration {
            $0.drainTimeLimit = .milliseconds(100)
            $0.stopTimeLimit = .milliseconds(100)
        })
        try await host.launch()
        await journal.waitFor("run Deaf")
        let outcomes = await host.terminate()
        #expect(outcomes.map { "\($0.module) \($0.phase) \($0.resultName)" } == ["Deaf run cutOff", "Deaf stop completed"])
        guard case .stopped(let failures) = host.status else { return }
        #expect(failures.map(\.phase) == [.run])
    }

    @Test func removingAModuleEndsItsRunFirst() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Store", journal: journal),
            working("Ticker", journal: journal),
        ]), configuration: testConfiguration())
        try await host.launch()
        await journal.waitFor("run Ticker")
        _ = try await host.remove("Ticker")
        #expect(journal.entries.suffix(2) == ["cancelled Ticker", "stop Ticker"])
        #expect(await host.runningModules == ["Store"])
        await host.terminate()
    }

    // MARK: The review's cases

    /// Case 1: a concurrent step where one module fails; a step mate that
    /// completed start after it (in step order) must be stopped.
    @Test func aStepMateThatStartedAfterTheFailureIsStopped() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Base", level: .service, journal: journal),
            scripted("Fails", concurrent: true, journal: journal) { $0.failsIn = .start },
            scripted("Slow", concurrent: true, journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(50)) } },
        ]), configuration: testConfiguration())
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .moduleFailed && error?.module == "Fails")
        #expect(error?.rollback.map(\.module) == ["Slow", "Base"])
        #expect(journal.modules("stop") == ["Slow", "Base"])
    }

    /// Case 1, cancelled: the host is cancelled mid-step; a mate that
    /// completed is stopped.
    @Test func aStepMateThatStartedWhileTheLaunchWasCancelledIsStopped() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Quick", concurrent: true, journal: journal) { $0.whileStarting = { await sleepIgnoringCancellation(.milliseconds(30)) } },
            scripted("Waits", concurrent: true, journal: journal) { $0.whileStarting = { try await Task.sleep(for: .seconds(300)) } },
        ]), configuration: testConfiguration())
        let launching = Task { try await host.launch() }
        await journal.waitFor("begin Waits")
        launching.cancel()
        let result = await launching.result
        guard case .failure(let error as HostError) = result, error.code == .cancelled else {
            Issue.record("\(result)")
            return
        }
        #expect(journal.modules("stop") == ["Quick"])
        #expect(error.rollback.map(\.module) == ["Quick"])
    }

    /// Case 5: terminate() waits for a removal in progress before it stops
    /// the removed module's dependency.
    @Test func terminateWaitsForARemovalInProgress() async throws {
        let gate = Gate()
        let host = ModuleHost(registry: try declare([
            scripted("Base", journal: journal),
            scripted("User", after: ["Base"], journal: journal) { module in
                module.whileStopping = { [journal] in
                    await gate.pass()
                    journal.add("stopped User")
                }
            },
        ]), configuration: testConfiguration())
        try await host.launch()
        let removing = Task { try await host.remove("User") }
        await journal.waitFor("stop User")
        let terminating = Task { await host.terminate() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!journal.entries.contains("stop Base"), "Base waits until User has stopped")
        #expect(host.status.description == "running")
        gate.open()
        _ = try await removing.value
        #expect(await terminating.value.map(\.module) == ["Base"])
        let entries = journal.entries
        #expect(entries.firstIndex(of: "stopped User")! < entries.firstIndex(of: "stop Base")!)
    }

    /// Case 6: terminate() during launch cancels it and stops what started.
    @Test func terminateDuringLaunchCancelsItAndStopsWhatStarted() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            // Ends only when cancelled (or after 5 minutes, and the test fails).
            scripted("B", journal: journal) { $0.whileStarting = { try await Task.sleep(for: .seconds(300)) } },
            scripted("C", journal: journal),
        ]), configuration: testConfiguration())
        let launching = Task { try await host.launch() }
        await journal.waitFor("begin B")
        let stopped = await host.terminate()
        #expect(!journal.entries.contains("start B"), "B's start was cancelled")
        #expect(stopped.map(\.module) == ["A"])
        let result = await launching.result
        guard case .failure(let error as HostError) = result, error.code == .cancelled else {
            Issue.record("launch went on: \(result)")
            return
        }
        #expect(!journal.entries.contains("begin C"))
        #expect(await host.runningModules.isEmpty)
        #expect(!(await host.waitUntilRunning()))
    }

    /// Case 7: a start under a time limit sees its caller's cancellation;
    /// when it completes after the launch was cancelled, its module is
    /// stopped.
    @Test func aStartUnderATimeLimitSeesTheCancellationAndIsStoppedIfItCompletes() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { [journal] module in
                module.whileStarting = {
                    do {
                        try await Task.sleep(for: .seconds(300))
                    } catch {
                        journal.add("B saw the cancellation")
                    }
                }
            },
        ]), configuration: testConfiguration { $0.startTimeLimit = .seconds(600) })
        let launching = Task { try await host.launch() }
        await journal.waitFor("begin B")
        launching.cancel()
        _ = await launching.result
        #expect(journal.entries.contains("B saw the cancellation"))
        #expect(journal.modules("stop") == ["B", "A"], "B said it started, so it is stopped")
    }

    /// Case 8: a stop, reload or gather handler past its limit is cancelled,
    /// not left running.
    @Test func hooksAndHandlersPastTheirLimitAreCancelled() async throws {
        let cancelled = Journal()
        let sleepUntilCancelled: @Sendable (String) async -> Void = { what in
            do {
                try await Task.sleep(for: .seconds(300))
            } catch {
                cancelled.add(what)
            }
        }
        let host = ModuleHost(registry: try declare([
            scripted("Slow", journal: journal) { module in
                module.onSetUp = { $0.on(Quick.self) { _ in await sleepUntilCancelled("gather"); return 1 } }
                module.whileStopping = { await sleepUntilCancelled("stop") }
                module.whileReloading = { await sleepUntilCancelled("reload") }
            },
        ]), configuration: testConfiguration {
            $0.stopTimeLimit = .milliseconds(50)
            $0.reloadTimeLimit = .milliseconds(50)
            $0.answerTimeLimit = .milliseconds(50)
        })
        try await host.launch()
        _ = await host.gather(Quick())
        let reload = await host.reload()
        #expect(reload.map(\.resultName) == ["timedOut"])
        await host.terminate()
        // Each cancellation is seen soon; a loaded test machine may take a while.
        for _ in 0..<6000 where cancelled.entries.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Set(cancelled.entries) == ["gather", "reload", "stop"])
    }

    /// Case 9: a service cycle resolved from two threads at once is the
    /// documented error, not a deadlock.
    @Test func aServiceCycleResolvedFromTwoThreadsAtOnceIsAnError() async throws {
        let services = ServiceRegistry()
        let (a, b) = (ModuleLife(moduleName: "A"), ModuleLife(moduleName: "B"))
        let creating = Locked(0)
        // Each make waits (a little) until both threads are creating.
        let meet: @Sendable () -> Void = {
            creating.withLock { $0 += 1 }
            for _ in 0..<20 where creating.withLock({ $0 }) < 2 { usleep(10_000) }
        }
        _ = try services.register(First.self, by: a, lifetime: .shared) {
            meet()
            _ = try services.resolve(Second.self, for: "A")
            return First()
        }
        _ = try services.register(Second.self, by: b, lifetime: .shared) {
            meet()
            _ = try services.resolve(First.self, for: "B")
            return Second()
        }
        let errors = Locked<[ServiceError.Code]>([])
        let done = DispatchGroup()
        let resolutions: [@Sendable () throws -> Void] = [
            { _ = try services.resolve(First.self, for: "X") },
            { _ = try services.resolve(Second.self, for: "Y") },
        ]
        for resolve in resolutions {
            done.enter()
            Thread.detachNewThread {
                do {
                    try resolve()
                } catch let error as ServiceError {
                    errors.withLock { $0.append(error.code) }
                } catch {
                    Issue.record("\(error)")
                }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "deadlocked")
        #expect(errors.withLock { $0 } == [.cycle, .cycle])
        // The makes capture the registry: forget them, as a host does when
        // their modules stop, so that nothing is left holding it.
        services.removeServices(of: "A", types: [ObjectIdentifier(First.self)])
        services.removeServices(of: "B", types: [ObjectIdentifier(Second.self)])
    }
}

private struct First: Sendable {}
private struct Second: Sendable {}

/// Engine cases that send signals to the test process: in StressTests, which
/// is serialized.
extension StressTests {
    /// Runs a host whose module handles the SIGUSR1 event with `handle`,
    /// sends SIGUSR1, then SIGTERM once the handler runs, and returns once
    /// `run()` has.
    func runWithUserSignalHandler(_ handle: @escaping @Sendable () async -> Void, log: LogRecorder? = nil) async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal) { [journal] module in
                module.onSetUp = { context in
                    context.on(Ping.self) { _ in
                        journal.add("handling Ping")
                        await handle()
                        return "late"
                    }
                }
            },
        ]), configuration: testConfiguration {
            $0.userSignalEvents[.usr1] = Ping(payload: 1)
            if let log { $0.log = log.handler(logLevel: .warning) }
        })
        let signaller = Task { [journal] in
            await journal.waitFor("ready A")
            kill(getpid(), SIGUSR1)
            await journal.waitFor("handling Ping")
            kill(getpid(), SIGTERM)
        }
        try await host.run()
        await signaller.value
        #expect(journal.modules("stop") == ["A"])
    }

    /// Case 2: a slow handler of a SIGUSR1 event does not keep SIGTERM from
    /// acting: the test's 15-minute limit is far under the handler's hour.
    @Test(.timeLimit(.minutes(15))) func aSlowUserSignalHandlerDoesNotDelaySIGTERM() async throws {
        try await runWithUserSignalHandler { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// Issue 26, case 10: a SIGUSR1 handler that ignores its cancellation
    /// is left behind and reported; `run()` returns without waiting for it
    /// (the test's 15-minute limit is far under its hour).
    @Test(.timeLimit(.minutes(15))) func aUserSignalHandlerThatIgnoresCancellationIsLeftBehind() async throws {
        let log = LogRecorder()
        try await runWithUserSignalHandler({ await sleepIgnoringCancellation(.seconds(3600)) }, log: log)
        #expect(log.lines.contains { $0.message == "SectionRegistry: the broadcast of SIGUSR1 did not end when cancelled: left behind" })
    }

    /// The new user's first guess: a loop in `start`. SIGTERM during launch
    /// cancels it, so the process can be stopped.
    @Test func aLoopInStartEndsOnSIGTERM() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Store", level: .service, journal: journal),
            scripted("Ticker", journal: journal) { [journal] module in
                module.whileStarting = {
                    while true {
                        try await Task.sleep(for: .milliseconds(10))
                        journal.add("tick")
                    }
                }
            },
        ]), configuration: testConfiguration())
        let signaller = Task {
            await journal.waitFor("tick")
            kill(getpid(), SIGTERM)
        }
        try await host.run()
        await signaller.value
        #expect(journal.modules("stop") == ["Store"], "Ticker never finished starting; Store was stopped")
    }

    /// Two hosts' `run()` in one process: the second gets an error it can
    /// handle, not a trap.
    @Test func aSecondRunServingSignalsIsAnError() async throws {
        let first = ModuleHost(registry: try declare([scripted("A", journal: journal)]), configuration: testConfiguration())
        let running = Task { try await first.run() }
        #expect(await first.waitUntilRunning())
        let second = ModuleHost(registry: try declare([scripted("B", journal: journal)]), configuration: testConfiguration())
        let error = await #expect(throws: HostError.self) { try await second.run() }
        #expect(error?.code == .signalsInUse)
        #expect(!journal.entries.contains("setUp B"), "nothing of the second was launched")
        running.cancel()
        try await running.value
    }
}
