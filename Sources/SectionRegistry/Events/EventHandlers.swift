
/// One module's handler for events of type `Event`.
@usableFromInline
struct EventHandler<Event: ModuleEvent>: Sendable {
    @usableFromInline
    enum Body: Sendable {
        /// Returns the reply, or `nil` to decline.
        case direct(@Sendable (Event) async throws -> Event.Reply?)
        /// Always handles an event without a reply; `handled` is
        /// `.handled(())`, made where the compiler knows `Reply` is `Void`.
        case performing(@Sendable (Event) async throws -> Void, handled: EventOutcome<Event.Reply>)
        /// Answers through the responder, now or later.
        case deferred(@Sendable (Event, EventResponder<Event.Reply>) async throws -> Void)
    }

    @usableFromInline let module: String
    /// The module's place in the start order: handlers run in this order.
    let rank: Int
    @usableFromInline let body: Body
}

/// The handlers of one event type, in start order, and their modules' names.
private struct HandlerList<Event: ModuleEvent>: RemovableHandlers {
    var handlers: [EventHandler<Event>] = []
    var modules: [String] = []

    mutating func insert(_ handler: EventHandler<Event>) {
        // Handlers mostly arrive in rank order: look for the place from the end.
        let position = handlers.lastIndex { $0.rank <= handler.rank }.map { $0 + 1 } ?? 0
        handlers.insert(handler, at: position)
        modules.insert(handler.module, at: position)
    }

    func removingHandlers(of module: String) -> any RemovableHandlers {
        var list = HandlerList()
        for handler in handlers where handler.module != module { list.insert(handler) }
        return list
    }
}

private protocol RemovableHandlers: Sendable {
    func removingHandlers(of module: String) -> any RemovableHandlers
}

/// Every module's event handlers, by event type: the one dispatcher that
/// lifecycle, custom and signal events all go through.
@usableFromInline
final class EventHandlers: Sendable {
    private let lists = Locked<[ObjectIdentifier: any RemovableHandlers]>([:])

    func add<Event>(_ handler: EventHandler<Event>) {
        lists.withLock { lists in
            // Taken out of the table so that its arrays are not shared and grow
            // in place.
            var list = lists.removeValue(forKey: ObjectIdentifier(Event.self)) as? HandlerList<Event> ?? HandlerList()
            list.insert(handler)
            lists[ObjectIdentifier(Event.self)] = list
        }
    }

    func removeHandlers(of module: String) {
        lists.withLock { lists in
            lists = lists.mapValues { $0.removingHandlers(of: module) }
        }
    }

    /// A snapshot: handlers added or removed later do not change a dispatch
    /// already under way.
    @usableFromInline
    func handlers<Event>(for _: Event.Type) -> (handlers: [EventHandler<Event>], modules: [String]) {
        guard let list = lists.withLock({ $0[ObjectIdentifier(Event.self)] }) as? HandlerList<Event> else { return ([], []) }
        return (list.handlers, list.modules)
    }
}

extension EventHandler {
    /// Asks the module and waits for its answer; `settlement` is set when
    /// the answer came through a responder.
    ///
    /// With `inline`, a direct handler is simply called and awaited, as a
    /// hand-written loop would. Otherwise (and always for a deferred
    /// handler) the handler runs in a task of its own and the answer is
    /// awaited at most `timeLimit`, so that a hung handler cannot hold up
    /// the dispatch. With `timings`, the time to the answer is recorded.
    @inlinable
    func answer(
        _ event: Event, timeLimit: Duration, inline: Bool, timings: EventTimings?
    ) async -> (outcome: EventOutcome<Event.Reply>, settlement: OneShot<EventOutcome<Event.Reply>>?) {
        guard let timings else { return await answer(event, timeLimit: timeLimit, inline: inline) }
        let clock = ContinuousClock()
        let start = clock.now
        let answer = await answer(event, timeLimit: timeLimit, inline: inline)
        timings.record(module: module, event: String(reflecting: Event.self), start: start, duration: start.duration(to: clock.now))
        return answer
    }

    @inlinable
    func answer(
        _ event: Event, timeLimit: Duration, inline: Bool
    ) async -> (outcome: EventOutcome<Event.Reply>, settlement: OneShot<EventOutcome<Event.Reply>>?) {
        guard inline else { return await answerInTask(event, timeLimit: timeLimit) }
        do {
            switch body {
            case .direct(let handle):
                return (try await handle(event).map { .handled($0) } ?? .declined, nil)
            case .performing(let handle, let handled):
                try await handle(event)
                return (handled, nil)
            case .deferred:
                return await answerInTask(event, timeLimit: timeLimit)
            }
        } catch {
            return (.failed(error), nil)
        }
    }

    @usableFromInline
    func answerInTask(
        _ event: Event, timeLimit: Duration
    ) async -> (outcome: EventOutcome<Event.Reply>, settlement: OneShot<EventOutcome<Event.Reply>>?) {
        let settlement = OneShot<EventOutcome<Event.Reply>>()
        let responder = EventResponder(answer: settlement)
        Task {
            do {
                switch body {
                case .direct(let handle):
                    if let reply = try await handle(event) { responder.respond(reply) } else { responder.decline() }
                case .performing(let handle, let handled):
                    try await handle(event)
                    responder.answer.fulfil(handled)
                case .deferred(let handle):
                    try await handle(event, responder)
                }
            } catch {
                responder.fail(error)
            }
        }
        return (await settlement.value(within: timeLimit) ?? .timedOut, settlement)
    }
}
