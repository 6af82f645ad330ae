import Synchronization

/// One module's handler for events of type `Event`.
struct EventHandler<Event: ModuleEvent>: Sendable {
    enum Body: Sendable {
        /// Returns the reply, or `nil` to decline.
        case direct(@Sendable (Event) async throws -> Event.Reply?)
        /// Answers through the responder, now or later.
        case deferred(@Sendable (Event, EventResponder<Event.Reply>) async throws -> Void)
    }

    let module: String
    /// The module's place in the start order: handlers run in this order.
    let rank: Int
    let body: Body
}

/// The handlers of one event type, in start order.
private struct HandlerList<Event: ModuleEvent>: RemovableHandlers {
    var handlers: [EventHandler<Event>]

    func removingHandlers(of module: String) -> any RemovableHandlers {
        HandlerList(handlers: handlers.filter { $0.module != module })
    }
}

private protocol RemovableHandlers: Sendable {
    func removingHandlers(of module: String) -> any RemovableHandlers
}

/// Every module's event handlers, by event type: the one dispatcher that
/// lifecycle, custom and signal events all go through.
final class EventHandlers: Sendable {
    private let lists = Mutex<[ObjectIdentifier: any RemovableHandlers]>([:])

    func add<Event>(_ handler: EventHandler<Event>) {
        lists.withLock { lists in
            var list = lists[ObjectIdentifier(Event.self)] as? HandlerList<Event> ?? HandlerList(handlers: [])
            let position = list.handlers.firstIndex { $0.rank > handler.rank } ?? list.handlers.endIndex
            list.handlers.insert(handler, at: position)
            lists[ObjectIdentifier(Event.self)] = list
        }
    }

    func removeHandlers(of module: String) {
        lists.withLock { lists in
            lists = lists.mapValues { $0.removingHandlers(of: module) }
        }
    }

    func removeAll() {
        lists.withLock { $0 = [:] }
    }

    /// A snapshot: handlers added or removed later do not change a dispatch
    /// already under way.
    func handlers<Event>(for _: Event.Type) -> [EventHandler<Event>] {
        lists.withLock { ($0[ObjectIdentifier(Event.self)] as? HandlerList<Event>)?.handlers ?? [] }
    }
}

extension EventHandler {
    /// Asks the module and waits for its answer.
    ///
    /// With `inline`, a direct handler is simply called and awaited, as a
    /// hand-written loop would. Otherwise (and always for a deferred
    /// handler) the handler runs in a task of its own and the answer is
    /// awaited at most `timeLimit`, so that a hung handler cannot hold up
    /// the dispatch.
    func answer(_ event: Event, timeLimit: Duration, inline: Bool) async -> ModuleAnswer<Event.Reply> {
        if inline, case .direct(let handle) = body {
            let outcome: EventOutcome<Event.Reply>
            do {
                outcome = try await handle(event).map { .handled($0) } ?? .declined
            } catch {
                outcome = .failed(error)
            }
            return ModuleAnswer(module: module, outcome: outcome, settlement: nil)
        }
        let settlement = OneShot<EventOutcome<Event.Reply>>()
        let responder = EventResponder(answer: settlement)
        Task {
            do {
                switch body {
                case .direct(let handle):
                    if let reply = try await handle(event) { responder.respond(reply) } else { responder.decline() }
                case .deferred(let handle):
                    try await handle(event, responder)
                }
            } catch {
                responder.fail(error)
            }
        }
        let outcome = await settlement.value(within: timeLimit) ?? .timedOut
        return ModuleAnswer(module: module, outcome: outcome, settlement: settlement)
    }
}
