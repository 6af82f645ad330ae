// What the Tracing and Metrics traits record of one `run`'s drain
// (Tracing.md, Metrics.md). Without either trait, an empty struct whose
// calls compile to nothing: the drain's code reads the same either way.
#if Tracing
import Tracing
#endif

/// One `run`'s drain as the traits see it: its span, begun when the host
/// asks the run to drain, and the time from that request to the run's end.
struct DrainObservation {
    #if Tracing || Metrics
    private let module: HostedModule
    #endif
    #if Tracing
    private let span: any Span
    #endif
    #if Metrics
    private let asked = MonotonicInstant.now
    #endif

    /// Begins observing `module`'s drain, as the host asks for it.
    @inline(__always)
    init(of module: HostedModule) {
        #if Tracing || Metrics
        self.module = module
        #endif
        #if Tracing
        span = module.context.host.spans.beginDrain(module.name, at: module.position)
        #endif
    }

    /// Records how the drain ended: whether the run `ended` (and with what
    /// `failure`), and whether the shutdown was `cutShort` meanwhile.
    @inline(__always)
    func end(ended: Bool, failure: HookOutcome?, cutShort: Bool) {
        #if Tracing || Metrics
        let outcome = DrainOutcome(ended: ended, failed: failure != nil, cutShort: cutShort)
        #endif
        #if Tracing
        module.context.host.spans.endDrain(span, outcome, failure: failure)
        #endif
        #if Metrics
        module.context.host.metrics.drain(module.name, outcome, nanoseconds: MonotonicInstant.now.nanoseconds - asked.nanoseconds)
        #endif
    }
}
