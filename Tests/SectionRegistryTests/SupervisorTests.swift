import Testing
@testable import ModuleRecords
@testable import SectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// swift-service-lifecycle's `Service`, by shape: the host fits it without
/// depending on it.
protocol Service: Sendable {
    func run() async throws
}

/// The adapter the Lifecycle article shows
/// (Sources/SectionRegistry/SectionRegistry.docc/Lifecycle.md).
struct ModuleHostService: Service {
    let host: ModuleHost

    func run() async throws {
        try await host.run()
    }
}

/// A minimal `ServiceGroup`: runs its services in a task group until SIGTERM
/// (or one of them ends), then cancels them all and waits for them.
struct Supervisor {
    let services: [any Service]

    func run() async throws {
        let (terminations, sink) = AsyncStream.makeStream(of: Int32.self)
        let signals = try SignalStream([SIGTERM]) { sink.yield($0) }
        defer { signals.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { try await service.run() }
            }
            group.addTask {
                for await _ in terminations { return }
            }
            try await group.next()
            group.cancelAll()
            try await group.waitForAll()
        }
    }
}

// In StressTests, which is serialized: SIGTERM goes to the whole test
// process, and one SignalStream at a time may take it.
extension StressTests {
    @Test func aSupervisorOwningTheSignalsStopsTheHostByCancellation() async throws {
        let host = ModuleHost(registry: try declare(["A", "B", "C"].map { name in
            scripted(name, journal: journal) { module in
                module.whileStopping = { [journal] in
                    try await Task.sleep(for: .milliseconds(20))
                    journal.add("slept \(name)")
                }
            }
        }), configuration: testConfiguration { $0.servesSignals = false })
        let supervisor = Task { try await Supervisor(services: [ModuleHostService(host: host)]).run() }
        #expect(await host.waitUntilRunning())
        kill(getpid(), SIGTERM)
        try await supervisor.value
        #expect(journal.modules("stop") == ["C", "B", "A"])
        #expect(journal.modules("slept") == ["C", "B", "A"], "every stop hook ran to its end")
        #expect(host.status.description == "stopped")
    }
}
