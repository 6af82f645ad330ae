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

    /// The reply, if the module handled the event.
    public var reply: Reply? {
        if case .handled(let reply) = self { reply } else { nil }
    }

    public var description: String {
        switch self {
        case .handled(let reply): "handled: \(reply)"
        case .declined: "declined"
        case .failed(let error): "failed: \(error)"
        case .timedOut: "no answer within the time limit"
        }
    }
}

/// One module's answer to one event.
public struct ModuleAnswer<Reply: Sendable>: Sendable {
    /// The module.
    public let module: String
    /// What it answered.
    public let outcome: EventOutcome<Reply>
    /// Set for answers given through an ``EventResponder``.
    let settlement: OneShot<EventOutcome<Reply>>?

    /// Answers the module gave after its first, or after its time was up,
    /// up to now: each was ignored.
    public var ignoredAnswers: Int {
        settlement?.ignoredCalls ?? 0
    }
}

/// The answers of every module that handles an event, in start order.
public struct DispatchReport<Reply: Sendable>: Sendable {
    /// One per module with a handler for the event, in start order.
    public let answers: [ModuleAnswer<Reply>]
    /// Modules a broadcast never reached because an earlier one failed and
    /// the event ``ModuleEvent/stopsAtFailure``.
    public let notReached: [String]

    /// The replies of the modules that handled the event, in start order.
    public var replies: [(module: String, reply: Reply)] {
        answers.compactMap { answer in answer.outcome.reply.map { (answer.module, $0) } }
    }

    /// The modules whose handler threw, with the error.
    public var failures: [(module: String, error: any Error)] {
        answers.compactMap { answer in
            if case .failed(let error) = answer.outcome { (answer.module, error) } else { nil }
        }
    }
}

/// The result of a first-handler-wins dispatch.
public enum FirstHandlerResult<Reply: Sendable>: Sendable {
    /// `module` handled the event and answered `reply`; modules after it were
    /// not asked.
    case handled(by: String, reply: Reply, report: DispatchReport<Reply>)
    /// No module handled it: every handler declined or failed (see the
    /// report). Never mistaken for "handled".
    case unhandled(report: DispatchReport<Reply>)
}
