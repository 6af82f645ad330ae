import SectionRegistryTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SectionRegistry

/// A hook a module does not write is never called, and never reported:
/// no outcome, no log line, no trace span, no failure in the status, on
/// every path that reports hooks (terminate, a test's stop, removal,
/// reload, and a shutdown cut short). Each test here failed before issue
/// 52: such a hook was reported `completed in 0.00 ms`, or `skipped` (a
/// failure) when the shutdown was cut short.
@Suite(.timeLimit(.minutes(5))) struct UnwrittenHookReportTests {
    /// Writes start and stop, and a reload.
    struct Store: AppModule {
        func start(_ context: ModuleContext) async throws {}
        func reload(_ context: ModuleContext) async throws {}
        func stop(_ context: ModuleContext) async throws {}
    }

    /// Writes only a `run`, that drains when asked: no stop hook, no reload.
    struct Janitor: AppModule {
        func run(_ context: ModuleContext) async throws {
            try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    /// Writes only a `run` that ignores the drain and its cancellation for a
    /// while: a second stop cuts the shutdown short under it.
    struct Stubborn: AppModule {
        func run(_ context: ModuleContext) async throws {
            await sleepIgnoringCancellation(.seconds(2))
        }
    }

    static let modules = [
        ModuleDescriptor(name: "Store", level: .service) { Store() },
        ModuleDescriptor(name: "Janitor") { Janitor() },
    ]

    func described(_ outcomes: [HookOutcome]) -> [String] {
        outcomes.map { "\($0.module) \($0.phase) \($0.resultName)" }
    }

    @Test func terminateReportsOnlyTheStopHooksWritten() async throws {
        let host = ModuleHost(registry: try declare(Self.modules), configuration: testConfiguration())
        try await host.launch()
        #expect(described(await host.terminate()) == ["Store stop completed"])
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(failures.isEmpty)
        let timed = await host.timings.hooks.map(\.module)
        #expect(timed.allSatisfy { $0 == "Store" }, "\(timed)")
    }

    @Test func aTestsStopAndItsLogNameNoHookTheModuleDoesNotWrite() async throws {
        try await withTestHost(Self.modules) { test in
            #expect(described(await test.stop()) == ["Store stop completed"])
            let janitorLines = test.log.lines.filter { $0.module == "Janitor" }.map(\.message)
            #expect(!janitorLines.contains { $0.contains("stop") || $0.contains("start") }, "\(janitorLines)")
        }
    }

    @Test func reloadAndRemoveReportOnlyWhatTheModuleWrites() async throws {
        let host = ModuleHost(registry: try declare(Self.modules), configuration: testConfiguration())
        try await host.launch()
        #expect(described(await host.reload()) == ["Store reload completed"])
        #expect(described(try await host.remove("Janitor")).isEmpty, "drained cleanly, and no stop hook to report")
        #expect(described(try await host.remove("Store")) == ["Store stop completed"])
        await host.terminate()
    }

    @Test func aShutdownCutShortSkipsOnlyStopHooksThatAreWritten() async throws {
        let host = ModuleHost(registry: try declare([
            ModuleDescriptor(name: "Store", level: .service) { Store() },
            ModuleDescriptor(name: "Stubborn") { Stubborn() },
        ]), configuration: testConfiguration { $0.drainTimeLimit = .seconds(60) })
        try await host.launch()
        async let shutdown = host.terminate()
        while host.status.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        host.requestStop(.signal(SIGTERM))  // a second stop
        _ = await shutdown
        guard case .stopped(let failures) = host.status else { Issue.record("\(host.status)"); return }
        #expect(described(failures) == ["Stubborn run cutOff", "Store stop skipped"])
    }
}
