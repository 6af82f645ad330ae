import SectionRegistryTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ModuleRecords
@testable import SectionRegistry

/// Issue 37: a `run` says what it does in its own code. Every `run` is asked
/// to drain; one that ends by cancellation says so in one line; one that
/// hears nothing is named, with the fix; readiness cannot silently
/// disagree; and the seven edges a review found.
@Suite(.timeLimit(.minutes(15))) struct PlainRunTests {
    let journal = Journal()

    func outcomes(_ list: [HookOutcome]) -> [String] {
        list.map { "\($0.module) \($0.phase) \($0.resultName)" }
    }

    // MARK: One model for the drain

    @Test func aRunThatHearsNothingHoldsTheDrainToItsLimitAndIsNamedWithTheFix() async throws {
        try await withTestHost([
            working("Ticker", journal: journal, endsOnDrain: false),
        ], configuration: {
            $0.drainTimeLimit = .milliseconds(200)
        }) { test in
            await journal.waitFor("run Ticker")
            let start = ContinuousClock.now
            let shutdown = await test.stop()
            #expect(start.duration(to: .now) >= .milliseconds(200), "held to the drain limit, not cancelled at once")
            #expect(outcomes(shutdown) == ["Ticker run timedOut", "Ticker stop completed"])
            guard case .stopped(let failures) = test.host.status else { Issue.record("\(test.host.status)"); return }
            #expect(failures.map { "\($0.module) \($0.phase)" } == ["Ticker run"], "the shutdown is unclean: exit 3")
            let warning = test.log.lines.first { $0.message.contains("did not finish its run within the drain limit") }
            #expect(warning?.metadata["module"] == "Ticker")
            #expect(warning?.message.contains("context.cancelOnDrain") == true, "the message names the fix")
        }
    }

    @Test func aRunWhoseWorkSwallowsItsCancellationIsToldThatNotToAddCancelOnDrain() async throws {
        let released = Locked(false)
        defer { released.withLock { $0 = true } }  // the loop left behind ends with the test
        try await withTestHost([
            working("Ticker", journal: journal) {
                while !released.withLock({ $0 }) {
                    try? await Task.sleep(for: .milliseconds(5))  // swallows the cancellation: spins
                }
            },
        ], configuration: {
            $0.drainTimeLimit = .milliseconds(200)
            $0.stopTimeLimit = .milliseconds(100)
        }) { test in
            await journal.waitFor("run Ticker")
            let shutdown = await test.stop()
            #expect(outcomes(shutdown) == ["Ticker run cutOff", "Ticker stop completed"])
            let warning = test.log.lines.first { $0.message.contains("did not finish its run within the drain limit") }
            #expect(warning?.metadata["module"] == "Ticker")
            #expect(warning?.message.contains("swallows its cancellation") == true, "\(warning?.message ?? "no warning")")
            #expect(warning?.message.contains("says so: `try await context.cancelOnDrain") == false, "it says so already")
            let cutOff = shutdown.first { $0.phase == .run }
            #expect(cutOff.map { $0.duration < .seconds(5) } == true, "counted from the start of the drain, not of the run")
        }
    }

    @Test func aRunThatEndsByCancellationSaysSoAndEndsAtOnceInItsTurn() async throws {
        try await withTestHost([
            draining("Database", level: .service, journal: journal),
            working("Ticker", after: ["Database"], journal: journal),
        ], configuration: { $0.drainTimeLimit = .seconds(3600) }) { test in
            await journal.waitFor("run Ticker")
            let shutdown = await test.stop()
            #expect(outcomes(shutdown) == ["Ticker stop completed", "Database stop completed"])
            let ends = journal.entries.filter { $0.hasPrefix("cancelled") || $0.hasPrefix("drain") || $0.hasPrefix("stop") }
            #expect(ends == ["cancelled Ticker", "drain Database", "drained Database", "stop Ticker", "stop Database"],
                    "in its turn, before Database drains")
        }
    }

    @Test func aDrainHandlerIsNeverCalledAfterItsScopeEnded() async throws {
        try await withTestHost([
            asking("Worker", journal: journal) { module in
                module.work = { [journal] context in
                    await context.withDrainHandler {
                        journal.add("scope Worker")
                    } onDrain: {
                        journal.add("handler Worker")
                    }
                    await context.servesUntilDrained()
                    try await context.withDrainHandler {
                        try await Task.sleep(for: .milliseconds(1))
                    } onDrain: {
                        journal.add("late handler Worker")  // the drain came before this scope: called at once
                    }
                }
            },
        ]) { test in
            await journal.waitFor("scope Worker")
            await test.stop()
            #expect(!journal.entries.contains("handler Worker"), "its scope had ended: \(journal.entries)")
            #expect(journal.entries.contains("late handler Worker"))
            #expect(journal.entries.suffix(2) == ["returned Worker", "stop Worker"])
        }
    }

    @Test func theOpenScopesHandlersAreCalledInTheOrderTheScopesOpened() {
        // The first handler is kept apart from the others (ModuleLife):
        // whichever scopes close, those still open are called oldest first,
        // each once, and none whose scope closed.
        let life = ModuleLife(moduleName: "M")
        let a = life.addDrainHandler { journal.add("a") }!
        let b = life.addDrainHandler { journal.add("b") }!
        _ = life.addDrainHandler { journal.add("c") }!
        life.removeDrainHandler(b)
        life.removeDrainHandler(a)
        let d = life.addDrainHandler { journal.add("d") }!
        _ = life.addDrainHandler { journal.add("e") }!
        life.removeDrainHandler(d)
        life.requestDrain()
        life.requestDrain()
        #expect(journal.entries == ["c", "e"])

        let alone = ModuleLife(moduleName: "N")
        let f = alone.addDrainHandler { journal.add("f") }!
        _ = alone.addDrainHandler { journal.add("g") }!
        alone.removeDrainHandler(f)
        _ = alone.addDrainHandler { journal.add("h") }!
        alone.requestDrain()
        #expect(journal.entries == ["c", "e", "g", "h"])
        #expect(alone.addDrainHandler { journal.add("late") } == nil, "drained already: the caller calls it")
    }

    @Test func aCancellationErrorAfterTheDrainIsACleanEnd() async throws {
        try await withTestHost([
            asking("Worker", journal: journal) { module in
                module.work = { context in
                    try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
                }
            },
        ]) { test in
            await journal.waitFor("run Worker")
            let shutdown = await test.stop()
            #expect(outcomes(shutdown) == ["Worker stop completed"])
            #expect(test.host.failedRuns.withLock { $0 }.isEmpty)
        }
    }

    // MARK: Readiness

    /// A module that declares readiness, and whose `run` never reports it
    /// (a bind that never returns); "ended NAME" once the run is ended.
    func neverReady(_ name: String) -> ModuleDescriptor {
        draining(name, level: .late, journal: journal) { [journal] module in
            module.reportsReady = true
            module.beforeReady = {
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    journal.add("ended \(name)")
                    throw error
                }
            }
        }
    }

    @Test func aDeclaredReadinessThatNeverComesFailsTheLaunchAndEndsTheRunFirst() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            neverReady("HTTP"),
        ]), configuration: testConfiguration { $0.readinessTimeLimit = .milliseconds(100) })
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .moduleFailed && error?.module == "HTTP" && error?.phase == .run)
        #expect(error?.description.contains("did not report it is ready within 0.1 seconds (HostConfiguration.readinessTimeLimit)") == true,
                "\(error?.description ?? "")")
        #expect(error?.description.contains("Call context.reportReady()") == true, "names the fix")
        #expect(journal.modules("stop") == ["HTTP", "Database"])
        let ended = try #require(journal.entries.firstIndex(of: "ended HTTP"), "the run was ended: \(journal.entries)")
        #expect(ended < (journal.entries.firstIndex(of: "drain Database") ?? 0), "ended before what it uses: \(journal.entries)")
        #expect(host.runs.withLock { $0 }.isEmpty, "no run goes on")
    }

    @Test func aRunWhoseReadinessRunsPastTheStartLimitIsEndedAndTheMessageSaysReadiness() async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            neverReady("HTTP"),
        ]), configuration: testConfiguration {
            $0.startTimeLimit = .milliseconds(100)
            $0.readinessTimeLimit = nil
        })
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.module == "HTTP" && error?.phase == .run, "\(String(describing: error))")
        #expect(error?.description.contains("did not report it is ready within 0.1 seconds (HostConfiguration.startTimeLimit)") == true,
                "\(error?.description ?? "")")
        #expect(journal.modules("stop") == ["HTTP", "Database"])
        let entries = journal.entries
        let ended = try #require(entries.firstIndex(of: "ended HTTP"), "the run was ended: \(entries)")
        #expect(ended < (entries.firstIndex(of: "drain Database") ?? 0), "ended before what it uses: \(entries)")
        #expect(host.runs.withLock { $0 }.isEmpty, "no run goes on")
    }

    @Test func aReadinessReportedWhereNoneWasDeclaredIsAWarningNamingTheModule() async throws {
        try await withTestHost([
            asking("HTTP", journal: journal) { module in
                module.work = { context in
                    context.reportReady()
                    context.reportReady()
                    await context.servesUntilDrained()
                }
            },
        ]) { test in
            await journal.waitFor("run HTTP")
            await test.stop()
            let warnings = test.log.lines.filter { $0.message.contains("called context.reportReady(), but does not declare") }
            #expect(warnings.count == 1, "once")
            #expect(warnings.first?.metadata["module"] == "HTTP")
            #expect(warnings.first?.message.contains("`var runReportsReady: Bool { true }`") == true)
        }
    }

    // MARK: The edges

    @Test(arguments: ["remove", "reload"]) func aRequestFromADrainingRunIsAnsweredAtOnce(request: String) async throws {
        let box = HostBox()
        let answer = Locked<String?>(nil)
        let host = ModuleHost(registry: try declare([
            asking("Manager", journal: journal) { module in
                module.work = { [journal] context in
                    await context.servesUntilDrained()
                    if request == "remove" {
                        do throws(HostError) {
                            try await box.value.remove("Plugin")
                            answer.withLock { $0 = "removed" }
                        } catch {
                            answer.withLock { $0 = "\(error.code)" }
                        }
                    } else {
                        let reloaded = await box.value.reload()
                        answer.withLock { $0 = "reloaded \(reloaded.count)" }
                    }
                    journal.add("answered Manager")
                }
            },
            asking("Plugin", after: ["Manager"], journal: journal),
        ]), configuration: testConfiguration {
            $0.drainTimeLimit = .seconds(20)
            $0.stopTimeLimit = .seconds(20)
        })
        box.set(host)
        try await host.launch()
        await journal.waitFor("run Manager")
        let start = ContinuousClock.now
        let shutdown = await host.terminate()
        #expect(start.duration(to: .now) < .seconds(10), "answered at once, not after the limits")
        #expect(answer.withLock { $0 } == (request == "remove" ? "stopping" : "reloaded 0"))
        #expect(outcomes(shutdown) == ["Plugin stop completed", "Manager stop completed"], "clean")
        let entries = journal.entries
        let returned = try #require(entries.firstIndex(of: "returned Manager"), "\(entries)")
        #expect(returned < (entries.firstIndex(of: "stop Manager") ?? 0), "its stop hook after its run")
    }

    @Test(arguments: 0..<50) func aSecondStopCancelsTheRunsNotYetAskedWithoutAskingThem(round: Int) async throws {
        let host = ModuleHost(registry: try declare([
            draining("Database", level: .service, journal: journal),
            draining("Cache", level: .service, after: ["Database"], journal: journal),
            draining("HTTP", level: .late, journal: journal) { $0.drain = { try await Task.sleep(for: .seconds(3600)) } },
        ]), configuration: testConfiguration {
            $0.drainTimeLimit = .seconds(3600)
            $0.stopTimeLimit = .seconds(3600)
        })
        try await host.launch()
        await journal.waitFor("run HTTP")
        async let shutdown = host.terminate()
        await journal.waitFor("drain HTTP")
        if round % 2 == 1 { await Task.yield() }
        host.requestStop(.signal(SIGTERM))
        _ = await shutdown
        #expect(!journal.entries.contains("drain Cache") && !journal.entries.contains("drain Database"), "\(journal.entries)")
    }

    @Test func cancellingTheTaskThatRunsTheHostDuringItsShutdownCutsItShort() async throws {
        let host = ModuleHost(registry: try declare([
            working("Ticker", journal: journal, endsOnDrain: false),
        ]), configuration: testConfiguration {
            $0.servesSignals = false
            $0.drainTimeLimit = .seconds(20)
        })
        let running = Task { try await host.run() }
        #expect(await host.waitUntilRunning())
        Task { await host.terminate() }
        for await status in host.statusUpdates {
            if case .stopping = status { break }
        }
        let start = ContinuousClock.now
        running.cancel()
        try await running.value
        #expect(start.duration(to: .now) < .seconds(10), "escalated, as a second signal does")
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(failures.contains { $0.module == "Ticker" && $0.phase == .stop && $0.resultName == "skipped" }, "\(failures)")
    }

    @Test func aModulesRequestDuringTheWorkOfMainIsANormalShutdown() async throws {
        let host = ModuleHost(registry: try declare([
            asking("Admin", journal: journal) { module in
                module.work = { context in
                    try await Task.sleep(for: .milliseconds(20))
                    context.requestShutdown()
                    await context.servesUntilDrained()
                }
            },
        ]), configuration: testConfiguration { $0.servesSignals = false })
        let ending = await host.runCommand { _ in
            try await Task.sleep(for: .seconds(3600))  // cancelled when the host stops
            return 0
        }
        #expect(ending.status == 0 && ending.message == nil, "\(ending)")
    }

    @Test func aModulesRequestDuringTheLaunchOfMainIsANormalShutdown() async throws {
        let host = ModuleHost(registry: try declare([
            asking("Admin", journal: journal) { module in
                module.onStart = { context in context.requestShutdown() }
            },
            scripted("Later", after: ["Admin"], journal: journal),
        ]), configuration: testConfiguration { $0.servesSignals = false })
        let ending = await host.runCommand { _ in 0 }
        #expect(ending.status == 0 && ending.message == nil, "\(ending)")
        #expect(journal.modules("stop") == ["Admin"])
    }
}
