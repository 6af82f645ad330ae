import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SectionRegistry

/// Why the host stops is in its status and in `stopReason`: the first stop
/// asked for, whatever comes after.
@Suite(.timeLimit(.minutes(15))) struct StopReasonTests {
    /// The reasons the host published while stopping, and its final reason.
    func stopReasons(_ stop: @Sendable (ModuleHost, HostBox) async -> Void, modules: (HostBox) -> [ModuleDescriptor] = { _ in [] }) async throws -> (published: [StopReason], final: StopReason?) {
        let journal = Journal()
        let box = HostBox()
        let host = ModuleHost(registry: try declare([scripted("Store", level: .service, journal: journal)] + modules(box)),
                              configuration: testConfiguration())
        box.set(host)
        let updates = host.statusUpdates
        try await host.launch()
        await stop(host, box)
        var published: [StopReason] = []
        for await status in updates {
            if case .stopping(let reason) = status { published.append(reason) }
        }
        return (published, host.stopReason)
    }

    @Test func terminateFromTheProgram() async throws {
        let reasons = try await stopReasons { host, _ in _ = await host.terminate() }
        #expect(reasons.published == [.terminate])
        #expect(reasons.final == .terminate)
    }

    @Test func aSignalStaysTheReasonWhenASecondCutsTheShutdownShort() async throws {
        let reasons = try await stopReasons { host, _ in
            host.requestStop(.signal(SIGTERM))
            host.requestStop(.signal(SIGINT))
            _ = await host.waitUntilFinal()
        }
        #expect(reasons.final == .signal(SIGTERM))
        #expect(reasons.published.allSatisfy { $0 == .signal(SIGTERM) })
        #expect(StopReason.signal(SIGTERM).signalExitStatus == 143 && StopReason.signal(SIGINT).signalExitStatus == 130)
        #expect(StopReason.terminate.signalExitStatus == nil)
    }

    @Test func aModulesOwnRequestNamesTheModule() async throws {
        let reasons = try await stopReasons({ host, _ in _ = await host.waitUntilFinal() }) { box in
            [asking("Admin", journal: Journal()) { module in
                module.work = { context in
                    _ = await box.value.waitUntilRunning()
                    context.requestShutdown()
                    await context.servesUntilDrained()
                }
            }]
        }
        #expect(reasons.published == [.moduleRequest("Admin")])
        #expect(reasons.final == .moduleRequest("Admin"))
    }

    @Test func aFailedRunNamesTheModule() async throws {
        struct Jammed: Error {}
        let reasons = try await stopReasons({ host, _ in _ = await host.waitUntilFinal() }) { box in
            [asking("Worker", journal: Journal()) { module in
                module.work = { _ in
                    _ = await box.value.waitUntilRunning()
                    throw Jammed()
                }
            }]
        }
        #expect(reasons.published == [.runFailed("Worker")])
    }

    @Test func noReasonWhileTheHostRuns() async throws {
        let host = ModuleHost(registry: try declare([scripted("Store", journal: Journal())]), configuration: testConfiguration())
        try await host.launch()
        #expect(host.stopReason == nil)
        _ = await host.terminate()
        #expect(host.stopReason == .terminate)
    }
}
