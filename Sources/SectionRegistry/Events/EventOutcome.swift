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

/// The answers of the modules that handle an event, in start order.
///
/// Stored as the dispatch made it, outcomes beside the handlers' module
/// names, so that dispatching costs no more per module than the answer.
public struct DispatchReport<Reply: Sendable>: Sendable {
    /// Every module with a handler for the event, in start order.
    @usableFromInline let modules: [String]
    /// The outcome of each module asked: the first `outcomes.count` modules.
    @usableFromInline let outcomes: [EventOutcome<Reply>]
    /// The settlements of answers given through a responder, by position.
    @usableFromInline let settlements: [Int: OneShot<EventOutcome<Reply>>]

    @usableFromInline
    init(modules: [String], outcomes: [EventOutcome<Reply>], settlements: [Int: OneShot<EventOutcome<Reply>>]) {
        self.modules = modules
        self.outcomes = outcomes
        self.settlements = settlements
    }

    /// One per module asked, in start order.
    public var answers: [ModuleAnswer<Reply>] {
        outcomes.indices.map { ModuleAnswer(module: modules[$0], outcome: outcomes[$0], settlement: settlements[$0]) }
    }

    /// Modules a broadcast never reached because an earlier one failed and
    /// the event ``ModuleEvent/stopsAtFailure``, or that came after the
    /// module that handled a first-handler dispatch.
    public var notReached: [String] {
        Array(modules[outcomes.count...])
    }

    /// The replies of the modules that handled the event, in start order.
    public var replies: [(module: String, reply: Reply)] {
        outcomes.indices.compactMap { index in outcomes[index].reply.map { (modules[index], $0) } }
    }

    /// The modules whose handler threw, with the error.
    public var failures: [(module: String, error: any Error)] {
        outcomes.indices.compactMap { index in
            if case .failed(let error) = outcomes[index] { (modules[index], error) } else { nil }
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
