/// One module's handler for events of type `Event`, which it answers with a
/// `Reply` (the event's ``ModuleEvent/Reply``).
///
/// Generic over the reply as well, and not constrained to ``ModuleEvent``:
/// a type made from a mangled name has its constraints checked when it is
/// made, and `Event: ModuleEvent` was a search of every loaded image's
/// conformance records at the first registration of each event type
/// (about 0.15 M instructions of a tool's start-up).
@usableFromInline
struct EventHandler<Event: Sendable, Reply: Sendable>: Sendable {
    @usableFromInline
    enum Body: Sendable {
        /// Returns the reply, or `nil` to decline, without suspending. A
        /// dispatch calls it as a plain function, with no async frame and no
        /// hop to an executor.
        case replyingNow(@Sendable (Event) throws -> Reply?)
        /// Returns the reply, or `nil` to decline.
        case direct(@Sendable (Event) async throws -> Reply?)
        /// Answers through the responder, now or later.
        case deferred(@Sendable (Event, EventResponder<Reply>) async throws -> Void)
    }

    @usableFromInline let module: String
    /// Whether the module is alive: a dispatch calls the handler only then.
    @usableFromInline let life: ModuleLife
    /// The module's place in the start order: handlers run in this order.
    let rank: Int
    @usableFromInline let body: Body
}

/// What a module answered, and the settlement when it answered through a
/// responder (it counts the answers that came too late).
@usableFromInline
typealias HandlerAnswer<Reply: Sendable> = (outcome: EventOutcome<Reply>, settlement: OneShot<EventOutcome<Reply>>?)

extension EventHandler {
    /// Asks the module and waits for its answer.
    ///
    /// With `inline`, the handler is called and awaited, as a hand-written
    /// loop would. Otherwise (and always for a deferred handler) the handler
    /// runs in a task of its own and the answer is awaited at most
    /// `timeLimit`, so that a hung handler cannot hold up the dispatch; past
    /// it, the handler's task is cancelled. With
    /// `timings`, the time to the answer is recorded.
    @inlinable
    func answer(_ event: Event, timeLimit: Duration, inline: Bool, timings: EventTimings?) async -> HandlerAnswer<Reply> {
        guard let timings else { return await answer(event, timeLimit: timeLimit, inline: inline) }
        let clock = ContinuousClock()
        let start = clock.now
        let answer = await answer(event, timeLimit: timeLimit, inline: inline)
        timings.record(module: module, event: fullName(of: Event.self), start: start, duration: start.duration(to: clock.now))
        return answer
    }

    @inlinable
    func answer(_ event: Event, timeLimit: Duration, inline: Bool) async -> HandlerAnswer<Reply> {
        // Looked at when the dispatch comes to it, not when it began: a
        // module stopped meanwhile is not called.
        guard life.isAlive else { return (.stopped, nil) }
        guard inline else { return await answerInTask(event, timeLimit: timeLimit) }
        do {
            switch body {
            case .replyingNow(let handle):
                return (try handle(event).map { .handled($0) } ?? .declined, nil)
            case .direct(let handle):
                return (try await handle(event).map { .handled($0) } ?? .declined, nil)
            case .deferred:
                return await answerInTask(event, timeLimit: timeLimit)
            }
        } catch {
            return (.failed(error), nil)
        }
    }

    @usableFromInline
    func answerInTask(_ event: Event, timeLimit: Duration) async -> HandlerAnswer<Reply> {
        let settlement = OneShot<EventOutcome<Reply>>()
        let responder = EventResponder(answer: settlement)
        let handling = Task {
            do {
                switch body {
                case .replyingNow(let handle):
                    if let reply = try handle(event) { responder.respond(reply) } else { responder.decline() }
                case .direct(let handle):
                    if let reply = try await handle(event) { responder.respond(reply) } else { responder.decline() }
                case .deferred(let handle):
                    try await handle(event, responder)
                }
            } catch {
                responder.fail(error)
            }
        }
        guard let outcome = await settlement.value(within: timeLimit) else {
            // Past its limit (or the dispatch was cancelled): the handler is
            // cancelled, not left to run on unobserved.
            handling.cancel()
            return (.timedOut, settlement)
        }
        return (outcome, settlement)
    }
}
