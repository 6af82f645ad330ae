#if canImport(Glibc)
import Glibc
#endif

/// A moment on the clock `ContinuousClock` reads on Linux (`CLOCK_BOOTTIME`),
/// as nanoseconds: what a phase notes before and after every hook.
///
/// Not `ContinuousClock.Instant`: that type is resilient (its layout is
/// known only at run time), so every record holding one was copied through
/// value witnesses, and every `ContinuousClock.now` went through the
/// runtime: about 1 k instructions a module at each launch and stop, more
/// than the hooks themselves. This one is an `Int64`.
struct MonotonicInstant: Comparable, Sendable {
    var nanoseconds: Int64

    static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    func duration(to later: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds - nanoseconds)
    }

    /// `duration` in whole nanoseconds, held at `Int64.max` (or `.min`)
    /// for one beyond what an `Int64` of them holds (292 years).
    static func nanoseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? .max : total
    }

    static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = duration.components
        return MonotonicInstant(nanoseconds: instant.nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    static func < (earlier: MonotonicInstant, later: MonotonicInstant) -> Bool {
        earlier.nanoseconds < later.nanoseconds
    }

    /// Converts instants to `ContinuousClock`'s, for the trace and for
    /// sleeping until a deadline: both clocks read once, when it is made.
    struct Conversion {
        private let instant = ContinuousClock.now
        private let reference = MonotonicInstant.now

        func instant(_ moment: MonotonicInstant) -> ContinuousClock.Instant {
            instant + reference.duration(to: moment)
        }
    }
}
