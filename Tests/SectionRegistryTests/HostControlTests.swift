import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Disabling, removal, shutdown time limits, reload and timings.
@Suite struct HostControlTests {
    let journal = Journal()

    var threeModules: [ModuleDescriptor] {
        [
            scripted("Accounts", level: .service, journal: journal) { $0.onSetUp = { $0.on(Ping.self) { _ in "Accounts" } } },
            scripted("Billing", after: ["Accounts"], journal: journal) { $0.onSetUp = { $0.on(Ping.self) { _ in "Billing" } } },
            scripted("Search", journal: journal) { $0.onSetUp = { $0.on(Ping.self) { _ in "Search" } } },
        ]
    }

    @Test func modulesAreDisabledByConfiguration() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration { $0.disabledModules = ["Search"] })
        try await host.launch()
        #expect(await host.runningModules == ["Accounts", "Billing"])
        #expect(!journal.entries.contains { $0.hasSuffix("Search") })
    }

    @Test func modulesAreDisabledByTheEnvironmentVariable() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration {
            $0.environment = [HostConfiguration.disableVariable: "Billing, Search"]
        })
        try await host.launch()
        #expect(await host.runningModules == ["Accounts"])
    }

    @Test func disablingADependencyIsAnErrorNotACascade() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration {
            $0.environment = [HostConfiguration.disableVariable: "Accounts"]
        })
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .invalidOrder)
        #expect(journal.entries.isEmpty)
    }

    /// The record of TestCore, linked into this test binary, sets
    /// `.flags = APP_MODULE_REQUIRED`; TestFeatureFirst's does not. (All the
    /// linked records together cannot be ordered, on purpose.)
    @Test(arguments: ["environment", "configuration"])
    func aRequiredModuleCannotBeDisabled(from source: String) async throws {
        let linked = try ModuleRegistry.linked()
        let core = try #require(linked["TestCore"])
        #expect(core.isRequired)
        let registry = try declare([core, try #require(linked["TestFeatureFirst"])])
        let host = ModuleHost(registry: registry, configuration: testConfiguration {
            if source == "environment" {
                $0.environment = [HostConfiguration.disableVariable: "TestFeatureFirst,TestCore"]
            } else {
                $0.disabledModules = ["TestFeatureFirst", "TestCore"]
            }
        })
        let error = await #expect(throws: HostError.self) { try await host.launch() }
        #expect(error?.code == .invalidOrder)
        #expect(error?.description == """
            SectionRegistry: the modules cannot be disabled as asked; nothing was started:
              - cannot disable 'TestCore': it is marked APP_MODULE_REQUIRED, which forbids disabling it from outside the program: \
            remove 'TestCore' from SECTION_REGISTRY_DISABLE and HostConfiguration.disabledModules
            """, "\(error.map { "\($0)" } ?? "")")
        #expect(await host.runningModules.isEmpty)
    }

    @Test func aRemovedModuleIsStoppedAndGetsNoMoreEvents() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration())
        try await host.launch()
        let outcomes = try await host.remove("Search")
        guard outcomes.count == 1, case .completed = outcomes[0].result else { Issue.record("\(outcomes)"); return }
        #expect(journal.modules("stop") == ["Search"])
        #expect(await host.runningModules == ["Accounts", "Billing"])
        #expect(await host.broadcast(Ping(payload: 0)).replies.map(\.module) == ["Accounts", "Billing"])
        await host.terminate()
        #expect(journal.modules("stop") == ["Search", "Billing", "Accounts"], "never stopped twice")
    }

    @Test func aModuleOthersComeAfterCannotBeRemoved() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration())
        try await host.launch()
        let first = await #expect(throws: HostError.self) { try await host.remove("Accounts") }
        #expect(first?.code == .hasDependents && first?.module == "Accounts" && first?.dependents == ["Billing"])
        let unknown = await #expect(throws: HostError.self) { try await host.remove("Nobody") }
        #expect(unknown?.code == .notRunning && unknown?.module == "Nobody")
        #expect(await host.runningModules == ["Accounts", "Billing", "Search"])
        #expect(journal.modules("stop").isEmpty)
    }

    @Test func aModuleThatHangsInStopDoesNotHoldUpShutdown() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("First", level: .core, journal: journal),
            scripted("Stuck", journal: journal) { $0.hangsInStop = true },
            scripted("Last", level: .late, journal: journal),
        ]), configuration: testConfiguration { $0.stopTimeLimit = .milliseconds(50) })
        try await host.launch()
        let outcomes = await host.terminate()
        #expect(outcomes.map(\.module) == ["Last", "Stuck", "First"])
        if case .timedOut = outcomes[1].result {} else { Issue.record("\(outcomes[1])") }
        if case .completed = outcomes[2].result {} else { Issue.record("\(outcomes[2])") }
        #expect(journal.modules("stop") == ["Last", "Stuck", "First"])
        #expect(await host.terminate().isEmpty, "a second terminate stops nothing twice")
    }

    @Test func aFailedStopIsReportedAndTheOthersStillStop() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.failsIn = .stop },
            scripted("C", journal: journal),
        ]), configuration: testConfiguration())
        try await host.launch()
        let outcomes = await host.terminate()
        #expect(outcomes.map(\.module) == ["C", "B", "A"])
        if case .failed(let error) = outcomes[1].result {
            #expect(error as? ScriptError == ScriptError(module: "B", phase: .stop))
        } else {
            Issue.record("\(outcomes[1])")
        }
    }

    @Test func reloadReachesEveryModuleDespiteAFailure() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal) { $0.failsIn = .reload },
            scripted("B", journal: journal),
        ]), configuration: testConfiguration())
        try await host.launch()
        let outcomes = await host.reload()
        #expect(journal.modules("reload") == ["A", "B"])
        #expect(outcomes.map(\.module) == ["A", "B"])
        if case .failed = outcomes[0].result {} else { Issue.record("\(outcomes[0])") }
    }

    @Test func aReloadThatHangsIsCutOffAtItsTimeLimit() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Stuck", journal: journal) { $0.hangsInReload = true },
            scripted("Z", journal: journal),
        ]), configuration: testConfiguration { $0.reloadTimeLimit = .milliseconds(50) })
        try await host.launch()
        let outcomes = await host.reload()
        #expect(outcomes.map(\.module) == ["Stuck", "Z"])
        if case .timedOut = outcomes[0].result {} else { Issue.record("\(outcomes[0])") }
        if case .completed = outcomes[1].result {} else { Issue.record("\(outcomes[1])") }
        #expect(journal.modules("reload") == ["Stuck", "Z"])
    }

    @Test func timingsCoverEveryPhaseOfEveryModule() async throws {
        let host = ModuleHost(registry: try declare(threeModules), configuration: testConfiguration())
        try await host.launch()
        await host.terminate()
        let timings = await host.timings
        for module in ["Accounts", "Billing", "Search"] {
            for phase in [LifecyclePhase.setUp, .start, .ready, .stop] {
                #expect(timings.duration(of: module, in: phase) != nil, "\(module) \(phase)")
            }
        }
        let table = timings.description.split(separator: "\n")
        #expect(table.count == 4)
        #expect(table[0].split(separator: " ") == ["module", "setUp", "start", "ready", "stop"])
        #expect(table[1].hasPrefix("Accounts "))
    }
}
