import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Waiting for a running host, and its status as a sequence.
@Suite struct ReadinessTests {
    let journal = Journal()

    /// Collects every status of `host` from now until its final one.
    func statuses(of host: ModuleHost) -> Task<[String], Never> {
        let updates = host.statusUpdates
        return Task {
            var all: [String] = []
            for await status in updates { all.append(status.description) }
            return all
        }
    }

    @Test func theStatusGoesFromIdleToStoppedAndTheSequenceEnds() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal),
            scripted("B", journal: journal) { $0.failsIn = .stop },
        ]), configuration: testConfiguration())
        let seen = statuses(of: host)
        try await host.launch()
        await host.terminate()
        #expect(await seen.value == [
            "idle", "launching", "running", "stopping (terminate())",
            "stopped, with failures: B stop: failed after \(await host.timings.hooks.last { $0.module == "B" }!.duration.milliseconds) ms: B was told to fail in stop",
        ])
        var late: [String] = []
        for await status in host.statusUpdates { late.append(status.description) }
        #expect(late == [host.status.description], "a sequence made after the end holds the final status only")
    }

    @Test func aFailedLaunchEndsTheSequenceWithTheFailure() async throws {
        let host = ModuleHost(registry: try declare([scripted("A", journal: journal) { $0.failsIn = .start }]),
                              configuration: testConfiguration())
        let seen = statuses(of: host)
        await #expect(throws: HostError.self) { try await host.launch() }
        let all = await seen.value
        #expect(all.prefix(2) == ["idle", "launching"])
        #expect(all.count == 3 && all[2].hasPrefix("launch failed: SectionRegistry: module 'A' failed in start"), "\(all)")
        #expect(await !host.waitUntilRunning())
    }

    @Test func waitingUntilRunningReturnsOnceEveryModuleIsReady() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("A", journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(50)) } },
            scripted("B", journal: journal),
        ]), configuration: testConfiguration())
        let waiter = Task { [journal] in
            let running = await host.waitUntilRunning()
            journal.add("running \(running)")
        }
        try await host.launch()
        await waiter.value
        #expect(journal.entries.suffix(3) == ["ready A", "ready B", "running true"], "\(journal.entries)")
        #expect(await host.waitUntilRunning(), "at once when running")
        await host.terminate()
        #expect(await !host.waitUntilRunning(), "never again once stopped")
    }
}
