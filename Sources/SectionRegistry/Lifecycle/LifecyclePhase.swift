/// The hooks of ``AppModule``, in the order a module goes through them.
public enum LifecyclePhase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case setUp
    case start
    case ready
    case reload
    case stop

    public var description: String { rawValue }
}

/// How one module's hook ran.
public struct HookOutcome: Sendable, CustomStringConvertible {
    /// How a hook ended.
    public enum Result: Sendable {
        case completed
        case failed(any Error)
        /// It did not finish within its time limit; the host went on without it.
        case timedOut
        /// It was not called: shutdown was cancelled by a second signal.
        case skipped
    }

    public let module: String
    public let phase: LifecyclePhase
    public let result: Result
    /// From the call to its return, or to the time limit.
    public let duration: Duration
    /// When it was called, for the trace.
    let start: ContinuousClock.Instant

    /// Whether it failed or did not finish within its time limit.
    var failedOrTimedOut: Bool {
        switch result {
        case .failed, .timedOut: true
        case .completed, .skipped: false
        }
    }

    /// The result's case, as the trace names it.
    var resultName: String {
        switch result {
        case .completed: "completed"
        case .failed: "failed"
        case .timedOut: "timedOut"
        case .skipped: "skipped"
        }
    }

    public var description: String {
        switch result {
        case .completed: "\(module) \(phase): completed in \(duration)"
        case .failed(let error): "\(module) \(phase): failed after \(duration): \(embedded(error))"
        case .timedOut: "\(module) \(phase): did not finish within \(duration)"
        case .skipped: "\(module) \(phase): skipped"
        }
    }
}
