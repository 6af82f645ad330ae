/// How one module answered one event.
public enum EventOutcome<Reply: Sendable>: Sendable, CustomStringConvertible {
    /// It handled the event and answered this.
    case handled(Reply)
    /// It looked at the event and left it to others.
    case declined
    /// Its handler threw.
    case failed(any Error)
    /// It did not answer within the time limit (``ModuleHost/gather(_:)``).
    case timedOut
    /// Its module had stopped (or been removed, or the host had stopped)
    /// when the dispatch came to it: its handler was not called.
    case stopped

    /// The reply, if the module handled the event.
    public var reply: Reply? {
        if case .handled(let reply) = self { reply } else { nil }
    }

    public var description: String {
        switch self {
        case .handled(let reply): "handled: \(reply)"
        case .declined: "declined"
        case .failed(let error): "failed: \(embedded(error))"
        case .timedOut: "no answer within the time limit"
        case .stopped: "not asked: its module had stopped"
        }
    }
}
