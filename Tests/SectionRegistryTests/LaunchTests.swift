import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Launch phases, concurrent starts, and rollback when a module fails.
@Suite struct LaunchTests {
    let journal = Journal()

    func launch(_ modules: [ModuleDescriptor], _ adjust: (inout HostConfiguration) -> Void = { _ in }) async throws -> ModuleHost {
        let host = ModuleHost(registry: try declare(modules), configuration: testConfiguration(adjust))
        try await host.launch()
        return host
    }

    /// Launches modules that must fail, and returns the failure.
    func failedLaunch(_ modules: [ModuleDescriptor]) async throws -> HostError {
        let host = ModuleHost(registry: try declare(modules), configuration: testConfiguration())
        do {
            try await host.launch()
        } catch {
            #expect(await host.runningModules.isEmpty)
            return error
        }
        Issue.record("launch succeeded")
        throw ScriptError(module: "launch", phase: .start)
    }

    @Test func phasesRunInOrderForEveryModule() async throws {
        let host = try await launch([
            scripted("B", journal: journal),
            scripted("A", level: .service, journal: journal),
        ])
        #expect(journal.entries == [
            "setUp A", "setUp B",
            "begin A", "start A", "begin B", "start B",
            "ready A", "ready B",
        ])
        #expect(await host.runningModules == ["A", "B"])
        await host.terminate()
        #expect(journal.modules("stop") == ["B", "A"])
    }

    @Test func concurrentModulesStartTogetherAndDependentsWait() async throws {
        let yBegan = OneShot<Void>()
        _ = try await launch([
            scripted("X", concurrent: true, journal: journal) { module in
                // X finishes starting only once Y has begun: with sequential
                // starts it would wait in vain and fail.
                module.whileStarting = {
                    guard await yBegan.value(within: .seconds(10)) != nil else { throw ScriptError(module: "X", phase: .start) }
                }
            },
            scripted("Y", concurrent: true, journal: journal) { module in
                module.whileStarting = { yBegan.fulfil(()) }
            },
            scripted("Z", after: ["X"], concurrent: true, journal: journal),
        ])
        let entries = journal.entries
        let position = { (entry: String) in try #require(entries.firstIndex(of: entry)) }
        #expect(try position("begin Y") < position("start X"), "Y began while X was starting")
        #expect(try position("start X") < position("begin Z"), "Z, which comes after X, began after X started")
        #expect(try position("start Y") < position("begin Z"))
    }

    @Test func modulesThatDoNotOptInStartOneAfterTheOther() async throws {
        _ = try await launch([
            scripted("P", journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(20)) } },
            scripted("Q", journal: journal),
        ])
        #expect(journal.modules("begin") == ["P", "Q"])
        let entries = journal.entries
        #expect(entries.firstIndex(of: "start P")! < entries.firstIndex(of: "begin Q")!)
    }

    @Test func aFailedStartStopsTheStartedModulesInReverseOrder() async throws {
        let error = try await failedLaunch([
            scripted("A", journal: journal),
            scripted("B", journal: journal),
            scripted("C", journal: journal) { $0.failsIn = .start },
            scripted("D", journal: journal),
        ])
        #expect(error.code == .moduleFailed)
        #expect(error.module == "C")
        #expect(error.phase == .start)
        #expect(error.underlying as? ScriptError == ScriptError(module: "C", phase: .start))
        #expect(error.rollback.map(\.module) == ["B", "A"])
        #expect(journal.modules("stop") == ["B", "A"])
        #expect(!journal.entries.contains("begin D"))
        #expect(error.description.contains("module 'C' failed in start: C was told to fail in start (stopped again: B, A)"))
    }

    @Test func aFailedConcurrentStartStopsItsStepMatesToo() async throws {
        let error = try await failedLaunch([
            scripted("Base", level: .service, journal: journal),
            scripted("Fine", concurrent: true, journal: journal),
            scripted("Flaky", concurrent: true, journal: journal) { $0.failsIn = .start },
        ])
        #expect(error.code == .moduleFailed && error.module == "Flaky" && error.phase == .start, "\(error)")
        #expect(error.rollback.map(\.module) == ["Fine", "Base"])
    }

    @Test func aFailedSetUpStartsNothing() async throws {
        let error = try await failedLaunch([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.failsIn = .setUp },
        ])
        #expect(error.code == .moduleFailed && error.module == "B" && error.phase == .setUp, "\(error)")
        #expect(error.rollback.isEmpty)
        #expect(journal.modules("begin").isEmpty)
        #expect(journal.modules("stop").isEmpty)
    }

    @Test func aFailedReadyStopsEveryModule() async throws {
        let error = try await failedLaunch([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.failsIn = .ready },
            scripted("C", journal: journal),
        ])
        #expect(error.code == .moduleFailed && error.module == "B" && error.phase == .ready, "\(error)")
        #expect(error.rollback.map(\.module) == ["C", "B", "A"])
    }

    @Test func anInvalidGraphCreatesNothing() async throws {
        let error = try await failedLaunch([
            scripted("A", after: ["B"], journal: journal),
            scripted("B", after: ["A"], journal: journal),
        ])
        #expect(error.code == .invalidOrder)
        #expect(error.underlying as? RegistryError == .ordering([.cycle(["A", "B", "A"])]))
        #expect(journal.entries.isEmpty)
    }

    @Test func aHostLaunchesOnce() async throws {
        let host = try await launch([scripted("A", journal: journal)])
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .alreadyLaunched)
        #expect(journal.modules("setUp") == ["A"])
    }
}
