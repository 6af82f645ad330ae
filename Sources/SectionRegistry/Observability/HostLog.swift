/// The host's side of its ``HostLogHandler``: messages below the handler's
/// level are never built, and metadata has the same keys everywhere.
struct HostLog: Sendable {
    let handler: HostLogHandler
    /// A hook that completes but takes longer than this is a warning.
    let slowHookThreshold: Duration

    /// Whether messages at `level` are written.
    func takes(_ level: LogLevel) -> Bool {
        level >= handler.logLevel
    }

    func callAsFunction(
        _ level: LogLevel,
        _ message: @autoclosure () -> String,
        module: String? = nil,
        phase: LifecyclePhase? = nil,
        duration: Duration? = nil,
        _ extra: [String: String] = [:]
    ) {
        guard level >= handler.logLevel else { return }
        var metadata = extra
        metadata["module"] = module
        metadata["phase"] = phase?.rawValue
        metadata["duration"] = duration.map { $0.milliseconds + "ms" }
        handler.log(level: level, message: message(), metadata: metadata)
    }

    /// How a hook ran: its duration at debug; slow, timed out or skipped at
    /// warning; failed at error (cancelled, at info).
    func record(_ outcome: HookOutcome) {
        let (module, phase, duration) = (outcome.module, outcome.phase, outcome.duration)
        switch outcome.result {
        case .completed where duration > slowHookThreshold:
            self(.warning, "SectionRegistry: \(module) \(phase) was slow: \(duration.milliseconds) ms, over \(slowHookThreshold)",
                 module: module, phase: phase, duration: duration)
        case .completed:
            self(.debug, "SectionRegistry: \(module) \(phase) completed", module: module, phase: phase, duration: duration)
        case .failed(let error) where error is CancellationError:
            // The hook gave way to the cancellation of the task that launches.
            self(.info, "SectionRegistry: \(module) \(phase) cancelled", module: module, phase: phase, duration: duration)
        case .failed(let error):
            self(.error, "SectionRegistry: \(module) \(phase) failed: \(embedded(error))", module: module, phase: phase, duration: duration,
                 ["error": "\(error)"])
        case .timedOut:
            self(.warning, "SectionRegistry: \(module) \(phase) did not finish within its time limit; cancelled it and went on without it after \(duration.milliseconds) ms",
                 module: module, phase: phase, duration: duration)
        case .cutOff:
            self(.warning, "SectionRegistry: \(module) \(phase) cut off: cancelled it and went on without it after \(duration.milliseconds) ms",
                 module: module, phase: phase, duration: duration)
        case .skipped:
            self(.warning, "SectionRegistry: \(module) \(phase) skipped: shutdown was cut short", module: module, phase: phase)
        }
    }
}
