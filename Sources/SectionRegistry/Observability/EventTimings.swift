
/// How long one module spent handling one event type.
package struct EventTiming: Sendable, Hashable {
    /// The module.
    public let module: String
    /// The event type, as `String(reflecting:)` names it (``fullName(of:)``).
    public let event: String
    /// How many events it was asked about.
    public var count: Int
    /// The time from asking to its answer, summed.
    public var total: Duration
}

/// Event handling times, per module and event type, when
/// ``HostConfiguration/timesEventHandlers`` is on.
@usableFromInline
final class EventTimings: Sendable {
    private struct Key: Hashable {
        let module: String
        let event: String
    }

    private let timings = Locked<[Key: EventTiming]>([:])
    /// Where each handling also goes as a span, if the host is traced.
    private let trace: LaunchTrace?

    init(trace: LaunchTrace?) {
        self.trace = trace
    }

    @usableFromInline
    func record(module: String, event: String, start: ContinuousClock.Instant, duration: Duration) {
        trace?.event(module: module, event: event, start: start, duration: duration)
        timings.withLock { timings in
            let key = Key(module: module, event: event)
            var timing = timings[key] ?? EventTiming(module: module, event: event, count: 0, total: .zero)
            timing.count += 1
            timing.total += duration
            timings[key] = timing
        }
    }

    var all: [EventTiming] {
        timings.withLock { Array($0.values) }
            .sorted { ($0.module, $0.event) < ($1.module, $1.event) }
    }
}
