// The Integrations folder, under the traits (`swift test --traits
// ServiceLifecycle,Logging`): swift-log and swift-service-lifecycle, used as
// a server module uses them.
#if Logging || ServiceLifecycle
import Logging
#endif
#if ServiceLifecycle
import ServiceLifecycle
import ServiceLifecycleTestKit
#endif
import SectionRegistryTesting
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

#if Logging
/// What a logging backend was given: every event, with its logger's label.
final class RecordedLog: Sendable {
    typealias Event = (label: String, level: Logger.Level, message: String, metadata: Logger.Metadata)
    let events = Locked<[Event]>([])

    /// A logger at `debug` whose events this keeps.
    func logger(label: String) -> Logger {
        Logger(label: label) { label in Handler(log: self, label: label) }
    }

    struct Handler: LogHandler {
        let log: RecordedLog
        let label: String
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, given in given }
            log.events.withLock { $0.append((label, event.level, event.message.description, all)) }
        }
    }
}

@Suite struct SwiftLogTests {
    let journal = Journal()

    /// A module that logs through its context's `Logger`, as a library it
    /// hands the logger to would.
    func libraryUser(_ name: String) -> ModuleDescriptor {
        scripted(name, journal: journal) { module in
            module.onSetUp = { context in
                var logger = context.logger
                #expect(logger.label == name)
                logger[metadataKey: "request"] = "7"
                logger.info("table ready", metadata: ["rows": "3"])
                logger.trace("not at the host's level")
                context.log("a host line")
            }
        }
    }

    @Test func aModulesLoggerWritesToTheHostLogUnderTheModulesName() async throws {
        let log = LogRecorder()
        try await ModuleHost(registry: declare([libraryUser("Notes")]), configuration: testConfiguration { $0.log = log.handler(logLevel: .debug) }).launch()
        let line = try #require(log.lines.first { $0.message == "table ready" })
        #expect(line.level == .info)
        #expect(line.metadata == ["module": "Notes", "request": "7", "rows": "3"])
        #expect(!log.lines.contains { $0.message == "not at the host's level" }, "the host log's level holds for the logger")
    }

    @Test func theHostLogsThroughALoggerWithItsModulesLibraries() async throws {
        let recorded = RecordedLog()
        let host = ModuleHost(registry: try declare([libraryUser("Notes")]), configuration: testConfiguration {
            $0.log = .logger(recorded.logger(label: "server"))
        })
        #expect(host.configuration.log.logLevel == .debug, "the handler takes the logger's level")
        try await host.launch()
        let events = recorded.events.withLock { $0 }
        #expect(Set(events.map(\.label)) == ["server"], "one stream: the logger the host was given")
        let library = try #require(events.first { $0.message == "table ready" })
        #expect(library.level == .info)
        #expect(library.metadata == ["module": "Notes", "request": "7", "rows": "3"])
        #expect(events.contains { $0.message == "a host line" && $0.metadata["module"] == "Notes" })
        #expect(events.contains { $0.message.hasPrefix("SectionRegistry: Notes setUp completed") && $0.level == .debug },
                "the host's own lines too")
    }
}
#endif

#if ServiceLifecycle
/// A module's run sees its drain request as swift-service-lifecycle's
/// graceful shutdown, and a ServiceGroup's graceful shutdown reaches the host.
@Suite struct ServiceLifecycleTests {
    @Test func aRunSeesItsDrainRequestAsGracefulShutdown() async throws {
        let life = ModuleLife(moduleName: "HTTP")
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let run = Task {
            try await withDrainAsGracefulShutdown(life) {
                #expect(!Task.isShuttingDownGracefully)
                enter.yield()
                try await gracefulShutdown()
                #expect(Task.isShuttingDownGracefully)
            }
        }
        for await _ in entered { break }
        life.requestDrain()
        try await run.value
    }

    @Test func aRunHearsOnlyItsOwnDrainNotTheGracefulShutdownAroundIt() async throws {
        let life = ModuleLife(moduleName: "Database")
        let heard = Locked<[String]>([])
        try await testGracefulShutdown { group in
            try await withDrainAsGracefulShutdown(life) {
                await withGracefulShutdownHandler {
                    group.triggerGracefulShutdown()
                    heard.withLock { $0.append("group shut down") }
                    life.requestDrain()
                    heard.withLock { $0.append("drain requested") }
                } onGracefulShutdown: {
                    heard.withLock { $0.append("graceful shutdown") }
                }
            }
        }
        #expect(heard.withLock { $0 } == ["group shut down", "graceful shutdown", "drain requested"],
                "the run's graceful shutdown is its drain: the host drains runs one at a time")
    }

    @Test func aCancelWhenGracefulShutdownBodyIsCancelledOnDrain() async throws {
        let life = ModuleLife(moduleName: "Database")
        let cancelled = Task {
            try await withDrainAsGracefulShutdown(life) {
                await cancelWhenGracefulShutdown {
                    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        life.requestDrain()
        try await cancelled.value
    }

    @Test func aGroupsGracefulShutdownCallsTheHostsHandler() async {
        let heard = Locked(false)
        await testGracefulShutdown { group in
            await onGracefulShutdown({ heard.withLock { $0 = true } }) {
                #expect(!heard.withLock { $0 })
                group.triggerGracefulShutdown()
                #expect(heard.withLock { $0 })
            }
        }
    }

    @Test func theHostsHandlerKeepsTheTypeOfTheOperationsError() async {
        func missing() async throws(ServiceError) -> Int {
            try await onGracefulShutdown({}) { () throws(ServiceError) -> Int in
                throw .missing("Clock", requester: "Host", registered: [])
            }
        }
        do {
            _ = try await missing()
            Issue.record("returned")
        } catch {
            #expect(error.code == .missing, "a ServiceError, not any Error")
        }
    }

    @Test func theHostIsAServiceOfAServiceGroupThatCancellationStops() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([scripted("A", journal: journal), scripted("B", after: ["A"], journal: journal)]),
                              configuration: testConfiguration { $0.servesSignals = false })
        let group = ServiceGroup(services: [host], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try await group.run() }
        #expect(await host.waitUntilRunning())
        running.cancel()
        try await running.value
        #expect(journal.modules("stop") == ["B", "A"])
        #expect(host.status.description == "stopped")
    }

    @Test func aPlainRunThatAwaitsGracefulShutdownDrainsWithNoFlag() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([
            asking("Database", journal: journal) { module in
                module.work = { [journal] _ in
                    try await gracefulShutdown()  // a library's run: PostgresClient.run() hears it so
                    journal.add("drained Database")
                }
            },
            asking("HTTP", after: ["Database"], journal: journal) { module in
                module.work = { [journal] _ in
                    await withGracefulShutdownHandler {
                        try? await gracefulShutdown()  // Hummingbird's server: serves until then
                    } onGracefulShutdown: {
                        journal.add("drain HTTP")
                    }
                }
            },
        ]), configuration: testConfiguration { $0.drainTimeLimit = .seconds(3600) })
        try await host.launch()
        await journal.waitFor("run HTTP")
        let shutdown = await host.terminate()
        #expect(shutdown.allSatisfy { !$0.isFailure }, "\(shutdown)")
        #expect(journal.entries.contains("drain HTTP"))
        #expect(journal.entries.contains("drained Database"))
    }

    /// Servers.md's supervisor recipe (Sources/Example/Server/Sources/Supervised).
    @Test func aModulesRequestEndsTheSupervisorsGroupWithoutAnError() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([
            asking("Admin", journal: journal) { module in
                module.work = { context in
                    try await Task.sleep(for: .milliseconds(20))
                    context.requestShutdown()
                    try await gracefulShutdown()
                }
            },
        ]), configuration: testConfiguration { $0.servesSignals = false })
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: host, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "modules")],
            logger: logger
        ))
        try await group.run()
        #expect(host.stopReason == .moduleRequest("Admin"))
        #expect(journal.modules("stop") == ["Admin"])
    }

    @Test func aServiceGroupsGracefulShutdownDrainsAndStopsTheHost() async throws {
        let journal = Journal()
        let host = ModuleHost(registry: try declare([scripted("A", journal: journal), scripted("B", after: ["A"], journal: journal)]),
                              configuration: testConfiguration { $0.servesSignals = false })
        let group = ServiceGroup(services: [host], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try await group.run() }
        #expect(await host.waitUntilRunning())
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(journal.modules("stop") == ["B", "A"])
        #expect(host.status.description == "stopped")
    }
}
#endif
