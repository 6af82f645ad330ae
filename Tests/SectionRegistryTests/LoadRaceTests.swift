import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// A load of more modules into a running host (what `load(plugin:)` does
/// once the library is open) while the host is terminated, a module is
/// removed or another load runs: requests take their turns, a stop
/// interrupts a load.
@Suite struct LoadRaceTests {
    let journal = Journal()

    /// Brings `modules` up alongside the running ones, as `load(plugin:)`
    /// does once the library is open: a failure is the launch's
    /// ``HostError``, naming the plugin.
    ///
    /// - Returns: the names of the modules started, in start order.
    @discardableResult
    func load(_ modules: [ModuleDescriptor], into host: ModuleHost) async throws(HostError) -> [String] {
        do {
            return try await host.load(modules, from: "test plugin")
        } catch {
            #expect(error.plugin == "test plugin", "\(error)")
            throw error
        }
    }

    /// A host running `names`, launched.
    func runningHost(_ names: [String]) async throws -> ModuleHost {
        let host = ModuleHost(registry: try declare(names.map { scripted($0, journal: journal) }), configuration: testConfiguration())
        try await host.launch()
        return host
    }

    @Test func terminateDuringALoadStopsEveryModuleOnceInReverseOrderAndTheLoadFails() async throws {
        // A grace period no loaded machine runs out of.
        let host = ModuleHost(registry: try declare([scripted("A", journal: journal)]),
                              configuration: testConfiguration { $0.stopTimeLimit = .seconds(120) })
        try await host.launch()
        let gate = Gate()
        let loading = Task {
            try await load([scripted("B", journal: journal) { $0.whileStarting = { await gate.pass() } }], into: host)
        }
        await journal.waitFor("begin B")
        let terminating = Task { await host.terminate() }
        // B's start ignores the cancellation, as a slow hook would; it
        // returns within its grace period, so B started and is stopped.
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        let result = await loading.result
        let stopped = await terminating.value
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
        #expect(journal.modules("stop") == ["B", "A"], "each stopped once, in reverse start order")
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
        let terminating = Task { await host.terminate() }
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        await #expect(throws: HostError.self) { try await loading.value }
        _ = await terminating.value
        #expect(journal.modules("stop") == ["X", "A"], "B never started; A and X stopped once")
        #expect(await host.runningModules.isEmpty)
    }

    @Test func removingAModuleDuringALoadWaitsForTheLoad() async throws {
        let host = try await runningHost(["A", "X"])
        let gate = Gate()
        let loading = Task {
            try await load([
                scripted("B", journal: journal) { $0.whileStarting = { await gate.pass() } },
                scripted("C", after: ["B"], journal: journal),
            ], into: host)
        }
        await journal.waitFor("begin B")
        let removing = Task { try await host.remove("X") }
        try await Task.sleep(for: .milliseconds(50))
        #expect(journal.modules("stop").isEmpty, "the removal waits for its turn")
        gate.open()
        #expect(try await loading.value == ["B", "C"])
        _ = try await removing.value
        #expect(journal.modules("ready") == ["A", "X", "B", "C"])
        #expect(await host.runningModules == ["A", "B", "C"])
        await host.terminate()
        #expect(journal.modules("stop") == ["X", "C", "B", "A"], "each stopped once")
    }

    /// Case 4 of the lifecycle review: a module that comes after X is coming
    /// up; removing X must wait, then refuse.
    @Test func removingADependencyOfAModuleComingUpIsRefusedOnceItIsUp() async throws {
        let host = try await runningHost(["A", "X"])
        let gate = Gate()
        let loading = Task {
            try await load([scripted("B", after: ["X"], journal: journal) { $0.whileStarting = { await gate.pass() } }], into: host)
        }
        await journal.waitFor("begin B")
        let removing = Task { try await host.remove("X") }
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        _ = try await loading.value
        let error = await #expect(throws: HostError.self) { try await removing.value }
        #expect(error?.code == .hasDependents && error?.dependents == ["B"])
        #expect(await host.runningModules == ["A", "X", "B"])
        await host.terminate()
        #expect(journal.modules("stop") == ["B", "X", "A"])
    }

    /// Case 3: two loads at once. The second's module comes after the
    /// first's, which is still starting: it must not start before it, and
    /// when the first fails, the second fails too (its dependency is gone).
    @Test func twoLoadsAtOnceTakeTurns() async throws {
        let host = try await runningHost(["A"])
        let gate = Gate()
        let first = Task {
            try await load([scripted("P", journal: journal) { module in
                module.whileStarting = { await gate.pass() }
                module.failsIn = .start
            }], into: host)
        }
        await journal.waitFor("begin P")
        let second = Task { try await load([scripted("Q", after: ["P"], journal: journal)], into: host) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!journal.entries.contains("setUp Q"), "the second load waits for the first")
        gate.open()
        await #expect(throws: HostError.self) { try await first.value }
        await #expect(throws: (any Error).self) { try await second.value }
        #expect(!journal.entries.contains("begin Q"), "Q never starts without P")
        #expect(await host.runningModules == ["A"])
        await host.terminate()
        #expect(journal.modules("stop") == ["A"])
    }
}
