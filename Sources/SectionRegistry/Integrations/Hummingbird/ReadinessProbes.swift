#if Hummingbird
import Synchronization

/// The balancers that probe a server's readiness route, as the server sees
/// them: for the host's lame-duck step to last until each has seen the
/// server not ready (``HealthRoutes`` says the rule).
final class ReadinessProbes: Sendable {
    private struct Prober {
        var last: ContinuousClock.Instant
        /// The time between its last two probes: its pace; `nil` after one
        /// probe.
        var interval: Duration?
        /// Its probes answered 503 since the shutdown began.
        var notReadyAnswers = 0
    }

    private let probers = Mutex<[String: Prober]>([:])
    private let notReadyAnswersToNotice: Int

    init(notReadyAnswersToNotice: Int) {
        self.notReadyAnswersToNotice = notReadyAnswersToNotice
    }

    /// A probe from `source` (its address; one source for all where the
    /// request context does not give it) was answered, ready or not.
    func answered(by source: String, ready: Bool) {
        let now = ContinuousClock.now
        probers.withLock { probers in
            guard var prober = probers[source] else {
                probers[source] = Prober(last: now, notReadyAnswers: ready ? 0 : 1)
                return
            }
            prober.interval = now - prober.last
            prober.last = now
            if !ready { prober.notReadyAnswers += 1 }
            probers[source] = prober
        }
    }

    /// Returns once every balancer probing at the call has been answered
    /// 503 enough times and half its interval has passed since, or has
    /// stopped probing; or the calling task is cancelled (a second stop).
    func noticed() async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let waiting = probers.withLock { probers in
                probers.values.contains { prober in
                    guard let interval = prober.interval else { return false }
                    if prober.notReadyAnswers >= notReadyAnswersToNotice {
                        return now < prober.last + min(interval / 2, .seconds(1))
                    }
                    return now < prober.last + max(interval * 2, .seconds(1))
                }
            }
            guard waiting else { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
#endif
