/// The hooks of ``AppModule``, in the order a module goes through them.
public enum LifecyclePhase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case setUp
    case start
    case ready
    /// The module's long-running work, from ready to shutdown.
    case run
    case reload
    case stop

    public var description: String { rawValue }
}
