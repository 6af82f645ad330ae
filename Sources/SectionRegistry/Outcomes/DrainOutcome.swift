#if Tracing || Metrics
/// How one `run`'s drain ended, as the `Tracing` and `Metrics` traits name
/// it: the `run` ended (`drained`, or `failed`: it threw once asked), or
/// the wait for it gave up (`timedOut` past the drain limit, `cutShort`
/// by a second stop).
enum DrainOutcome: String {
    case drained, failed, timedOut, cutShort

    init(ended: Bool, failed: Bool, cutShort: Bool) {
        self = !ended ? (cutShort ? .cutShort : .timedOut) : failed ? .failed : .drained
    }
}
#endif
