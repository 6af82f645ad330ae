/// What one hook of a phase did. A phase keeps one for each of its hooks in
/// an array made before the first is called; a ``HookOutcome``, with its
/// module's name, is made from it only when someone asks.
///
/// Trivially copyable, with a layout known when it is compiled: a failed
/// hook's error is kept apart, in ``PhaseRecords``, and its start is a
/// ``MonotonicInstant``. With the error inside (a `HookOutcome.Result`), or
/// a resilient `ContinuousClock.Instant`, every copy of a record, and every
/// test of how a hook ended, went through value witnesses: a few hundred
/// instructions a module at each launch and stop.
struct HookRecord: Sendable {
    /// How a hook ended: ``HookOutcome/Result`` without the error.
    enum End: UInt8, Sendable {
        case completed, failed, timedOut, cutOff, skipped

        init(_ result: HookOutcome.Result) {
            switch result {
            case .completed: self = .completed
            case .failed: self = .failed
            case .timedOut: self = .timedOut
            case .cutOff: self = .cutOff
            case .skipped: self = .skipped
            }
        }
    }

    var end = End.skipped
    var start: MonotonicInstant
    /// How long it ran, in nanoseconds: a `Duration` is made only when one
    /// is asked for (``duration``), not for every hook that ends.
    var elapsed: Int64 = 0
    /// Whether the hook returned, or the host went on without it.
    var ended = false

    var duration: Duration {
        .nanoseconds(elapsed)
    }

    /// Records that the hook ended at `now`, as `end`.
    mutating func end(_ end: End, at now: MonotonicInstant) {
        self.end = end
        elapsed = now.nanoseconds - start.nanoseconds
        ended = true
    }
}

/// What each hook of a phase did, by position in the phase's modules, and
/// the errors of those that failed.
struct PhaseRecords: Sendable {
    var hooks: [HookRecord]
    /// By position; a list, since few hooks fail.
    var errors: [(position: Int, error: any Error)] = []

    var indices: Range<Int> {
        hooks.indices
    }

    subscript(position: Int) -> HookRecord {
        hooks[position]
    }

    /// The error of the hook at `position`, if it failed.
    func error(at position: Int) -> (any Error)? {
        errors.first { $0.position == position }?.error
    }

    /// How the hook at `position` ended, with its error if it failed.
    func result(at position: Int) -> HookOutcome.Result {
        switch hooks[position].end {
        case .completed: .completed
        case .failed: .failed(error(at: position)!)
        case .timedOut: .timedOut
        case .cutOff: .cutOff
        case .skipped: .skipped
        }
    }
}

#if Tracing || Metrics
extension HookRecord.End {
    /// The case's name, as a span's outcome or a metric's dimension: a
    /// literal, not `"\(end)"`, which finds the name by reflection each time.
    var name: String {
        switch self {
        case .completed: "completed"
        case .failed: "failed"
        case .timedOut: "timedOut"
        case .cutOff: "cutOff"
        case .skipped: "skipped"
        }
    }
}
#endif
