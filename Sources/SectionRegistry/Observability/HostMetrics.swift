// The host's metrics, under the `Metrics` trait (Metrics.md). Without the
// trait none of this is compiled, and the host's calls of it
// (Host/ModuleHost+Metrics.swift) are compiled out.
#if Metrics
import CoreMetrics

/// Records the host's metrics through the host's factory
/// (``HostConfiguration/metricsFactory``): what a dashboard of a fleet of
/// hosts shows. Names and dimensions are Metrics.md's table.
final class HostMetrics: Sendable {
    let factory: any MetricsFactory
    /// The modules started and not yet stopped: the gauge's value.
    private let running = Locked(0)
    private let modulesRunning: Gauge
    /// The hook timers made, by module and phase: a timer is made once,
    /// not at every hook (making one asks the factory, each time).
    private let hookTimers = Locked<[String: Timer]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
        modulesRunning = Gauge(label: Name.modulesRunning, factory: factory)
    }

    /// The names of the metrics (Prometheus-style: a backend that exports
    /// to Prometheus takes them as they are).
    enum Name {
        static let modulesRunning = "section_registry_modules_running"
        static let hookDuration = "section_registry_hook_duration"
        static let drainDuration = "section_registry_drain_duration"
        static let shutdowns = "section_registry_shutdowns_total"
        static let failures = "section_registry_hook_failures_total"
    }

    /// `count` modules started (their start hooks returned).
    func started(_ count: Int) {
        record(running: count)
    }

    /// `count` modules stopped (forgotten; their stop hooks called or
    /// skipped).
    func stopped(_ count: Int) {
        record(running: -count)
    }

    private func record(running change: Int) {
        guard change != 0 else { return }
        let now = running.withLock { running in
            running += change
            return running
        }
        modulesRunning.record(now)
    }

    /// A hook `module` writes, of `phase`, ended as `outcome` (a
    /// `HookRecord.End`'s name, or `failed` for a `run`) after
    /// `nanoseconds`; one that did not complete is counted as a failure too.
    func hook(_ module: String, _ phase: LifecyclePhase, outcome: String, nanoseconds: Int64?) {
        if let nanoseconds {
            let key = module + " " + phase.rawValue
            let timer = hookTimers.withLock { timers in
                if let timer = timers[key] { return timer }
                let timer = Timer(label: Name.hookDuration, dimensions: [("module", module), ("phase", phase.rawValue)], factory: factory)
                timers[key] = timer
                return timer
            }
            timer.recordNanoseconds(nanoseconds)
        }
        if outcome != "completed" {
            Counter(label: Name.failures, dimensions: [("module", module), ("phase", phase.rawValue), ("outcome", outcome)], factory: factory)
                .increment()
        }
    }

    /// `module`'s `run` drained, as `outcome`, `nanoseconds` after it was
    /// asked.
    func drain(_ module: String, _ outcome: DrainOutcome, nanoseconds: Int64) {
        Timer(label: Name.drainDuration, dimensions: [("module", module), ("outcome", outcome.rawValue)], factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// A shutdown began, for `reason`.
    func shutdown(_ reason: StopReason) {
        Counter(label: Name.shutdowns, dimensions: [("reason", reason.name)], factory: factory).increment()
    }
}
#endif
