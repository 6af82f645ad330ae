import Synchronization
import SectionRegistryTesting
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

extension StressTests {
    /// Another library puts a plain handler of SIGTERM over the host's: the
    /// host puts its own back and calls that one from it, so that a SIGTERM
    /// both drains the host and reaches the library, and says so once. (A
    /// Dispatch source's handler, as Vapor's `app.execute()` installs, is
    /// left in place and listened beside: a source here would leave its
    /// handler in this test process for good, since Dispatch installs it
    /// once a process; scripts/vapor-test.sh's check (e) runs the real
    /// `app.execute()`.)
    @Test func aHandlerAnotherLibraryPutsOverTheHostsIsTakenBackAndCalledToo() async throws {
        let log = LogRecorder()
        let host = ModuleHost(registry: try declare([scripted("A", journal: journal)]), configuration: testConfiguration { $0.log = log.handler(logLevel: .warning) })
        let running = Task { try await host.run() }
        #expect(await host.waitUntilRunning())
        libraryHeardSIGTERM.store(false, ordering: .sequentiallyConsistent)
        var library = sigaction()
        library.__sigaction_handler.sa_handler = { _ in libraryHeardSIGTERM.store(true, ordering: .sequentiallyConsistent) }
        sigaction(SIGTERM, &library, nil)  // another library takes the signal over
        let reported = { log.lines.filter { $0.message.hasPrefix("SectionRegistry: another library put its handler of SIGTERM") } }
        for _ in 0..<100 where reported().isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(reported().map(\.message) == ["SectionRegistry: another library put its handler of SIGTERM over the host's (Vapor's "
            + "app.execute() does): both hear each SIGTERM from now on, and that library may stop its work before the host drains it. "
            + "Start that library without its own signal handling (Vapor: app.server.start(address:) in a module's run, see Servers.md), "
            + "so that the host alone drains it in its turn."])
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "another library put its handler of SIGTERM", printed: reported().first?.message ?? "")
        kill(getpid(), SIGTERM)
        try await running.value
        #expect(host.status.description == "stopped", "the host heard it")
        let libraryHeard = libraryHeardSIGTERM.load(ordering: .sequentiallyConsistent)
        #expect(libraryHeard, "and so did the library")
        var action = sigaction()
        sigaction(SIGTERM, nil, &action)
        #expect(action.__sigaction_handler.sa_handler == nil, "given back as found (the default), the library's handler forgotten")
    }

    /// A `ServiceGroup` with `gracefulShutdownSignals` takes SIGTERM before
    /// its services run (on Linux, Dispatch's signal source installs a
    /// handler; on Darwin UnixSignals ignores the signal): a host left
    /// serving signals under it says so, with the fix, and gives the signal
    /// back as it found it. Both dispositions, in turn.
    @Test func aSignalTakenBeforeTheHostServesItIsAWarningNamingTheFix() async throws {
        let noOp: @convention(c) (Int32) -> Void = { _ in }
        defer { signal(SIGTERM, SIG_DFL) }
        for found in [unsafeBitCast(noOp, to: Int.self), 1 /* SIG_IGN */] {
            var taken = sigaction()
            taken.__sigaction_handler.sa_handler = unsafeBitCast(found, to: (@convention(c) (Int32) -> Void).self)
            sigaction(SIGTERM, &taken, nil)
            let log = LogRecorder()
            let host = ModuleHost(registry: try declare([scripted("A", journal: journal)]), configuration: testConfiguration { $0.log = log.handler(logLevel: .warning) })
            let running = Task { try await host.run() }
            #expect(await host.waitUntilRunning())
            let warnings = log.lines.filter { $0.message.hasPrefix("SectionRegistry: SIGTERM was taken in this process before the host began to serve it") }
            #expect(warnings.count == 1, "\(log.lines.map(\.message))")
            #expect(warnings.first?.message.contains("set HostConfiguration.servesSignals to false") == true)
            ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "SIGTERM was taken in this process", printed: warnings.first?.message ?? "")
            #expect(!log.lines.contains { $0.message.contains("SIGINT was taken") }, "only what something else took")
            await host.terminate()
            try await running.value
            var action = sigaction()
            sigaction(SIGTERM, nil, &action)
            #expect(action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } == found, "given back as found")
        }
    }
}

/// Whether the handler a test installs as another library's heard SIGTERM.
private let libraryHeardSIGTERM = Atomic<Bool>(false)
