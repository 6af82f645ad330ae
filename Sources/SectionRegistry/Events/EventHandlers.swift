/// The handlers of one event type, in start order, and their modules' names:
/// two flat arrays, already of the event's own type, that a dispatch takes
/// as they are.
///
/// Unchecked: reached only under the lock of the ``EventHandlers`` that
/// holds it; a dispatch takes copies of the arrays.
private final class HandlerList<Event: ModuleEvent>: RemovableHandlers, @unchecked Sendable {
    var handlers: [EventHandler<Event>] = []
    var modules: [String] = []

    func insert(_ handler: EventHandler<Event>) {
        // Handlers mostly arrive in rank order: look for the place from the end.
        let position = handlers.lastIndex { $0.rank <= handler.rank }.map { $0 + 1 } ?? 0
        handlers.insert(handler, at: position)
        modules.insert(handler.module, at: position)
    }

    func removeHandlers(of module: String) {
        handlers.removeAll { $0.module == module }
        modules.removeAll { $0 == module }
    }
}

/// A ``HandlerList`` of any event type. A class, so that the table can hand
/// out the list of a known event type without a dynamic cast.
private protocol RemovableHandlers: AnyObject, Sendable {
    func removeHandlers(of module: String)
}

/// Every module's event handlers, by event type: the one dispatcher that
/// lifecycle, custom and signal events all go through.
@usableFromInline
final class EventHandlers: Sendable {
    private let lists = Locked<[ObjectIdentifier: any RemovableHandlers]>([:])

    func add<Event>(_ handler: EventHandler<Event>) {
        lists.withLock { lists in
            let key = ObjectIdentifier(Event.self)
            if let list = lists[key] {
                unsafeDowncast(list, to: HandlerList<Event>.self).insert(handler)
            } else {
                let list = HandlerList<Event>()
                list.insert(handler)
                lists[key] = list
            }
        }
    }

    func removeHandlers(of module: String) {
        lists.withLock { lists in
            for list in lists.values { list.removeHandlers(of: module) }
        }
    }

    /// A snapshot: handlers added or removed later do not change a dispatch
    /// already under way.
    @usableFromInline
    func handlers<Event>(for _: Event.Type) -> (handlers: [EventHandler<Event>], modules: [String]) {
        lists.withLock { lists in
            // The key is the event type: the list under it is of that type.
            guard let list = lists[ObjectIdentifier(Event.self)] else { return ([], []) }
            let handlers = unsafeDowncast(list, to: HandlerList<Event>.self)
            return (handlers.handlers, handlers.modules)
        }
    }
}
