/// How one module's hook ran.
public struct HookOutcome: Sendable, CustomStringConvertible {
    /// How a hook ended.
    public enum Result: Sendable {
        case completed
        case failed(any Error)
        /// It did not finish within its time limit: the host cancelled it and
        /// went on without it.
        case timedOut
        /// It was running when shutdown was cut short (a second SIGTERM or
        /// SIGINT), or when an interrupted launch stopped waiting for it: the
        /// host cancelled it and went on without it.
        case cutOff
        /// It was not called: shutdown was cut short before its turn.
        case skipped
    }

    public let module: String
    public let phase: LifecyclePhase
    public let result: Result
    /// From the call to its return, or to the moment the host went on
    /// without it.
    public let duration: Duration
    /// When it was called, for the trace. A ``MonotonicInstant``, not the
    /// resilient `ContinuousClock.Instant`, so that an outcome is copied
    /// without value witnesses: a shutdown makes one per module.
    let start: MonotonicInstant
    /// Whether ``duration`` counts from the start of the drain, the limit
    /// a `run` was held to, not from the call: a `run`'s outcome at a
    /// shutdown or removal.
    var countsFromDrain = false

    /// Whether the hook did not complete: it failed, timed out, was cut off
    /// or skipped.
    public var isFailure: Bool {
        if case .completed = result { false } else { true }
    }

    /// The result's case, as the trace and the logs name it.
    var resultName: String {
        switch result {
        case .completed: "completed"
        case .failed: "failed"
        case .timedOut: "timedOut"
        case .cutOff: "cutOff"
        case .skipped: "skipped"
        }
    }

    public var description: String {
        "\(module) \(phase): \(resultDetail)"
    }

    /// How it ended, in words.
    var resultDetail: String {
        let took = "\(duration.milliseconds) ms"
        switch result {
        case .timedOut where phase == .run: return "not drained within the drain limit (\(took) from the start of the drain): cancelled"
        case .cutOff where phase == .run: return "had not ended when the host stopped waiting (\(took) from the start of the drain): cancelled and left behind"
        case .completed: return "completed in \(took)"
        case .failed(let error) where countsFromDrain: return "failed \(took) after the start of the drain: \(embedded(error))"
        case .failed(let error): return "failed after \(took): \(embedded(error))"
        case .timedOut: return "did not finish within its time limit (\(took)): cancelled and left behind"
        case .cutOff: return "cut off after \(took): cancelled and left behind"
        case .skipped: return "skipped: never called"
        }
    }
}
