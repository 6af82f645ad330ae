import SectionRegistryTesting
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

extension LogRecorder {
    /// The messages about `module` in `phase` at `level`.
    func about(_ module: String, _ phase: LifecyclePhase, at level: LogLevel) -> [LoggedLine] {
        lines.filter { $0.level == level && $0.metadata["module"] == module && $0.metadata["phase"] == phase.rawValue }
    }
}

/// Every host message goes through the configured handler, at its level,
/// with the module, phase and duration as metadata.
@Suite struct LoggingTests {
    let journal = Journal()

    func launchAndStop(logLevel: LogLevel) async throws -> LogRecorder {
        let log = LogRecorder()
        let host = ModuleHost(registry: try declare([
            scripted("Quick", level: .core, journal: journal) { $0.onSetUp = { $0.log("Quick: set up") } },
            scripted("Slow", journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(600)) } },
            scripted("Stuck", journal: journal) { $0.hangsInStop = true },
            scripted("Touchy", level: .late, journal: journal) { $0.failsIn = .reload },
        ]), configuration: testConfiguration {
            $0.log = log.handler(logLevel: logLevel)
            // Far from Slow's 600 ms and from the others' few, even on a
            // loaded machine.
            $0.slowHookThreshold = .milliseconds(300)
            $0.stopTimeLimit = .milliseconds(80)
        })
        try await host.launch()
        await host.reload()
        await host.terminate()
        return log
    }

    func milliseconds(_ message: LoggedLine) -> Double? {
        message.metadata["duration"].flatMap { Double($0.dropLast(2)) }
    }

    @Test func launchStepsAndEachHooksDurationAreDebugMessages() async throws {
        let log = try await launchAndStop(logLevel: .trace)
        #expect(log.lines.contains { $0.level == .debug && $0.message == "SectionRegistry: start order: Quick, Slow, Stuck, Touchy" })
        for module in ["Quick", "Slow", "Stuck", "Touchy"] {
            for phase in [LifecyclePhase.setUp, .ready] {
                let messages = log.about(module, phase, at: .debug)
                #expect(messages.count == 1, "\(module) \(phase)")
                #expect(messages.first.flatMap(milliseconds) != nil, "a duration in milliseconds")
            }
        }
        for phase in [LifecyclePhase.setUp, .start, .ready] {
            #expect(log.lines.contains { $0.level == .debug && $0.metadata["phase"] == phase.rawValue && $0.metadata["module"] == nil
                && $0.message == "SectionRegistry: \(phase) done: 4 hooks called" }, "the phase's total")
        }
    }

    @Test func slowHooksAndTimeLimitsAreWarningsAndFailuresErrors() async throws {
        let log = try await launchAndStop(logLevel: .trace)
        let slow = log.about("Slow", .start, at: .warning)
        #expect(slow.count == 1)
        #expect(slow.first.flatMap(milliseconds).map { $0 >= 600 } == true, "how long it ran: \(slow)")
        let stuck = log.about("Stuck", .stop, at: .warning)
        #expect(stuck.count == 1)
        #expect(stuck.first?.message.contains("did not finish within its time limit") == true)
        #expect(stuck.first.flatMap(milliseconds).map { $0 >= 80 } == true, "how long it ran: \(stuck)")
        let failed = log.about("Touchy", .reload, at: .error)
        #expect(failed.map(\.metadata["error"]) == ["Touchy was told to fail in reload"])
        #expect(log.about("Quick", .start, at: .warning).isEmpty, "a quick hook is no warning")
    }

    /// The threshold is compared in whole nanoseconds: one longer than an
    /// `Int64` of them holds is never crossed, and one of zero is crossed by
    /// every hook that takes any time at all.
    @Test(arguments: [(Duration.seconds(Int64.max), false), (.zero, true)])
    func theSlowHookThresholdHoldsAtItsExtremes(threshold: Duration, warns: Bool) async throws {
        let log = LogRecorder()
        let host = ModuleHost(registry: try declare([
            scripted("Napping", journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(5)) } },
        ]), configuration: testConfiguration {
            $0.log = log.handler(logLevel: .info)
            $0.slowHookThreshold = threshold
        })
        try await host.launch()
        await host.terminate()
        #expect(log.about("Napping", .start, at: .warning).isEmpty == !warns, "\(log.lines)")
    }

    @Test func aModulesLinesCarryItsNameAndLevelsBelowTheHandlersAreDropped() async throws {
        let log = try await launchAndStop(logLevel: .warning)
        #expect(log.lines.allSatisfy { $0.level >= .warning })
        #expect(Set(log.lines.compactMap { $0.metadata["module"] }).isSuperset(of: ["Slow", "Stuck", "Touchy"]))
        #expect(!log.lines.contains { $0.message == "Quick: set up" })
        let verbose = try await launchAndStop(logLevel: .info)
        #expect(verbose.lines.contains { $0.level == .info && $0.message == "Quick: set up" && $0.metadata == ["module": "Quick"] })
    }

    @Test func aModulesMessageIsBuiltOnlyIfTheLogTakesItAndCarriesItsMetadata() async throws {
        let log = LogRecorder()
        let built = Locked(0)
        let host = ModuleHost(registry: try declare([
            scripted("Chatty", journal: journal) {
                $0.onSetUp = { context in
                    context.log({ built.withLock { $0 += 1 }; return "a dump" }(), level: .debug)
                    context.log("warmed", metadata: ["entries": "3", "module": "Impostor"])
                }
            },
        ]), configuration: testConfiguration { $0.log = log.handler(logLevel: .info) })
        try await host.launch()
        await host.terminate()
        #expect(built.withLock { $0 } == 0, "a debug message was built for an info log")
        #expect(log.lines.contains { $0.message == "warmed" && $0.metadata == ["entries": "3", "module": "Chatty"] }, "\(log.lines)")
    }

    /// swift-log's `Logger.Level`, as a bridge sees it: a `String` enum of
    /// the same names.
    enum SwiftLogLevel: String, CaseIterable { case trace, debug, info, notice, warning, error, critical }

    @Test func levelsConvertToAndFromALoggingAPIWithTheSameNames() {
        for level in LogLevel.allCases {
            #expect(LogLevel(level.converted(to: SwiftLogLevel.self)) == level)
        }
        enum Fewer: String, CaseIterable { case info, fatal }
        #expect(LogLevel.debug.converted(to: Fewer.self) == .fatal)
        #expect(LogLevel(Fewer.fatal) == .info)
    }

    @Test func theDefaultHandlerWritesOneLinePerMessageWithSortedMetadata() {
        #expect(HostLogHandler.line(level: .warning, message: "SectionRegistry: Slow start was slow",
                                             metadata: ["phase": "start", "module": "Slow", "duration": "612.50ms"])
            == "WARNING SectionRegistry: Slow start was slow duration=612.50ms module=Slow phase=start\n")
        #expect(HostLogHandler.line(level: .info, message: "hello", metadata: [:]) == "INFO hello\n")
    }

    @Test func theDefaultLevelComesFromTheEnvironment() {
        let variable = HostLogHandler.levelVariable
        #expect(variable == "SECTION_REGISTRY_LOG_LEVEL")
        #expect(HostLogHandler.level(in: [:]) == .info)
        #expect(HostLogHandler.level(in: [variable: "debug"]) == .debug)
        #expect(HostLogHandler.level(in: [variable: "WARNING"]) == .warning)
        #expect(HostLogHandler.level(in: [variable: "loud"]) == .info)
        #expect(LogLevel.allCases.map(\.rawValue) == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        #expect(LogLevel.allCases.sorted() == LogLevel.allCases)
    }
}
