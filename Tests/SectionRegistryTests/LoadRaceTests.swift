import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// A load of more modules into a running host (what `load(plugin:)` does
/// once the library is open) while the host is terminated or a module is
/// removed: the host's actor lets those in while a hook of the load runs.
@Suite struct LoadRaceTests {
    let journal = Journal()

    /// Brings `modules` up alongside the running ones, as `load(plugin:)`
    /// does once the library is open, and throws as a launch does.
    ///
    /// - Returns: the names of the modules started, in start order.
    @discardableResult
    func load(_ modules: [ModuleDescriptor], into host: ModuleHost) async throws -> [String] {
        do {
            return try await host.bringUp(modules, from: "test plugin").started
        } catch {
            guard error.code == .launchFailed, let launchError = error.underlying else { throw error }
            throw launchError
        }
    }

    /// A host running `names`, launched.
    func runningHost(_ names: [String]) async throws -> ModuleHost {
        let host = ModuleHost(registry: try declare(names.map { scripted($0, journal: journal) }), configuration: testConfiguration())
        try await host.launch()
        return host
    }

    @Test func terminateDuringALoadStopsEveryModuleOnceAndTheLoadFails() async throws {
        let host = try await runningHost(["A"])
        let gate = Gate()
        let loading = Task {
            try await load([scripted("B", journal: journal) { $0.whileStarting = { await gate.pass() } }], into: host)
        }
        await journal.waitFor("begin B")
        let stopped = await host.terminate()
        gate.open()
        let result = await loading.result
        #expect(stopped.map(\.module) == ["A"])
        guard case .failure(let error) = result else {
            Issue.record("the load succeeded after terminate: \(await host.runningModules) left running")
            return
        }
        guard let error = error as? HostError, error.code == .cancelled else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(error.rollback.map(\.module) == ["B"])
        #expect(!journal.entries.contains("ready B"))
        #expect(journal.modules("stop") == ["A", "B"], "each stopped once")
        #expect(await host.runningModules.isEmpty)
        #expect(host.status.description == "stopped")
    }

    @Test func aLoadThatFailsAfterTerminateStopsNothingTwice() async throws {
        let host = try await runningHost(["A", "X"])
        let gate = Gate()
        let loading = Task {
            try await load([scripted("B", journal: journal) { module in
                module.whileStarting = { await gate.pass() }
                module.failsIn = .start
            }], into: host)
        }
        await journal.waitFor("begin B")
        await host.terminate()
        gate.open()
        await #expect(throws: HostError.self) { try await loading.value }
        #expect(journal.modules("stop") == ["X", "A"], "B never started; A and X stopped once")
        #expect(await host.runningModules.isEmpty)
    }

    @Test func removingAModuleDuringALoadCostsTheLoadedModulesNothing() async throws {
        let host = try await runningHost(["A", "X"])
        let gate = Gate()
        let loading = Task {
            try await load([
                scripted("B", journal: journal) { $0.whileStarting = { await gate.pass() } },
                scripted("C", after: ["B"], journal: journal),
            ], into: host)
        }
        await journal.waitFor("begin B")
        try await host.remove("X")
        gate.open()
        #expect(try await loading.value == ["B", "C"])
        #expect(journal.modules("ready") == ["A", "X", "B", "C"])
        #expect(await host.runningModules == ["A", "B", "C"])
        await host.terminate()
        #expect(journal.modules("stop") == ["X", "C", "B", "A"], "each stopped once")
    }
}
