/// The answers of the modules that handle an event, in start order.
///
/// Stored as the dispatch made it, outcomes beside the handlers' module
/// names, so that dispatching costs no more per module than the answer. An
/// outcome is stored without the error of a failure (kept apart by
/// position): for a reply type without references, such as `Void` or `Int`,
/// the outcomes are plain bytes that cost nothing to copy or free.
public struct DispatchReport<Reply: Sendable>: Sendable {
    /// An ``EventOutcome`` without the error of a failure.
    @usableFromInline
    enum Answer: Sendable {
        case handled(Reply)
        case declined
        case failed
        case timedOut
        case stopped
    }

    /// Every module with a handler for the event, in start order.
    @usableFromInline let modules: [String]
    /// The answer of each module asked: the first `asked.count` modules.
    @usableFromInline var asked: [Answer] = []
    /// The errors of the modules that failed, with their positions, in
    /// order. Arrays, not dictionaries: few entries, and a dictionary of a
    /// new reply type costs its first use a search of the Swift runtime's
    /// conformance records.
    @usableFromInline var errors: [(index: Int, error: any Error)] = []
    /// The settlements of answers given through a responder, with their
    /// positions, in order.
    @usableFromInline var settlements: [(index: Int, settlement: OneShot<EventOutcome<Reply>>)] = []
    /// The position of the first module that handled the event, if one
    /// did: kept as the answers come, so that ``firstReply`` reads it
    /// without a pass over every answer (a first-handler dispatch that
    /// reaches the last of N modules must not pay N more steps to say so).
    @usableFromInline var firstHandled: Int?

    /// An empty report, for a dispatch to `modules`.
    @inlinable
    init(modules: [String]) {
        self.modules = modules
        asked.reserveCapacity(modules.count)
    }

    /// Records the next module's reply, or that it declined (`nil`).
    @inlinable
    mutating func append(reply: Reply?) {
        if let reply {
            if firstHandled == nil { firstHandled = asked.count }
            asked.append(.handled(reply))
        } else {
            asked.append(.declined)
        }
    }

    /// Records that the next module's handler threw `error`.
    @inlinable
    mutating func append(failure error: any Error) {
        errors.append((asked.count, error))
        asked.append(.failed)
    }

    /// Records the next module's answer; `settlement` if it answered
    /// through a responder.
    @inlinable
    mutating func append(_ outcome: EventOutcome<Reply>, settlement: OneShot<EventOutcome<Reply>>?) {
        if let settlement { settlements.append((asked.count, settlement)) }
        switch outcome {
        case .handled(let reply): append(reply: reply)
        case .declined: append(reply: nil)
        case .failed(let error): append(failure: error)
        case .timedOut: asked.append(.timedOut)
        case .stopped: asked.append(.stopped)
        }
    }

    /// The outcome of the module at `index` among those asked.
    @inlinable
    func outcome(at index: Int) -> EventOutcome<Reply> {
        switch asked[index] {
        case .handled(let reply): .handled(reply)
        case .declined: .declined
        case .failed: .failed(errors.first { $0.index == index }!.error)
        case .timedOut: .timedOut
        case .stopped: .stopped
        }
    }

    /// Each module asked and its answer, in start order.
    @inlinable
    public var answers: [(module: String, outcome: EventOutcome<Reply>)] {
        asked.indices.map { (modules[$0], outcome(at: $0)) }
    }

    /// The module that handled the event first, and its reply: for
    /// ``ModuleHost/firstHandler(for:)``, the module that handled it; `nil`
    /// when none did (every handler declined or failed, see ``answers``),
    /// never a false "yes".
    public var firstReply: (module: String, reply: Reply)? {
        guard let index = firstHandled, case .handled(let reply) = asked[index] else { return nil }
        return (modules[index], reply)
    }

    /// How many answers `module` gave after its first, or after its time was
    /// up, up to now: each was ignored. Only a module that answers through
    /// an ``EventResponder`` can give them.
    public func ignoredAnswers(of module: String) -> Int {
        guard let index = modules[..<asked.count].firstIndex(of: module) else { return 0 }
        return settlements.first { $0.index == index }?.settlement.ignoredCalls ?? 0
    }

    /// Modules a broadcast never reached because an earlier one failed and
    /// the event ``ModuleEvent/stopsAtFailure``, or that came after the
    /// module that handled a first-handler dispatch.
    public var notReached: [String] {
        Array(modules[asked.count...])
    }

    /// The replies of the modules that handled the event, in start order.
    @inlinable
    public var replies: [(module: String, reply: Reply)] {
        asked.indices.compactMap { index in
            if case .handled(let reply) = asked[index] { (modules[index], reply) } else { nil }
        }
    }

    /// The modules whose handler threw, with the error.
    @inlinable
    public var failures: [(module: String, error: any Error)] {
        errors.map { (modules[$0.index], $0.error) }
    }
}
