/// The handlers of one event type as a dispatch takes them: flat arrays of
/// the event's own handler type, in start order, and their modules' names.
/// Immutable, so that a dispatch reads it without the lock and without
/// copying.
@usableFromInline
final class HandlerTable<Event: Sendable, Reply: Sendable>: Sendable {
    @usableFromInline let handlers: [EventHandler<Event, Reply>]
    @usableFromInline let modules: [String]

    init(handlers: [EventHandler<Event, Reply>], modules: [String]) {
        self.handlers = handlers
        self.modules = modules
    }
}

/// The handlers of one event type as modules register and forget them.
///
/// Unchecked: reached only under the lock of the ``EventHandlers`` that
/// holds it.
private final class HandlerList<Event: Sendable, Reply: Sendable>: EventHandlerList, @unchecked Sendable {
    private var handlers: [EventHandler<Event, Reply>] = []
    private var modules: [String] = []
    /// The table of the current handlers, made by the first dispatch after a
    /// change.
    private var current: HandlerTable<Event, Reply>?

    func insert(_ handler: EventHandler<Event, Reply>) {
        // Handlers mostly arrive in rank order: look for the place from the end.
        let position = handlers.lastIndex { $0.rank <= handler.rank }.map { $0 + 1 } ?? 0
        handlers.insert(handler, at: position)
        modules.insert(handler.module, at: position)
        current = nil
    }

    func removeHandlers(of module: ModuleLife) {
        // A module's handlers sit together, at its rank; shutdown removes
        // the last module first, so the search from the end finds it at once.
        guard let last = handlers.lastIndex(where: { $0.life === module }) else { return }
        var first = last
        while first > 0, handlers[first - 1].life === module { first -= 1 }
        handlers.removeSubrange(first...last)
        modules.removeSubrange(first...last)
        current = nil
    }

    func table() -> AnyObject {
        if let current { return current }
        let table = HandlerTable(handlers: handlers, modules: modules)
        current = table
        return table
    }
}

/// A ``HandlerList`` of any event type.
private protocol EventHandlerList: AnyObject, Sendable {
    func removeHandlers(of module: ModuleLife)
    /// The ``HandlerTable`` of the list's event type.
    func table() -> AnyObject
}

/// Every module's event handlers, by event type: the one dispatcher that
/// lifecycle, custom and signal events all go through.
@usableFromInline
final class EventHandlers: Sendable {
    private let lists = Locked(TypeTable<any EventHandlerList>())

    /// Adds `handler`, if its module is alive.
    func add<Event, Reply>(_ handler: EventHandler<Event, Reply>) -> (accepted: Bool, firstRefusal: Bool) {
        let key = ObjectIdentifier(Event.self)
        return handler.life.register(handlerFor: key) {
            lists.withLock { lists in
                if let list = lists[key] {
                    // The key is the event type: the list under it is of that type.
                    unsafeDowncast(list, to: HandlerList<Event, Reply>.self).insert(handler)
                } else {
                    let list = HandlerList<Event, Reply>()
                    list.insert(handler)
                    lists[key] = list
                }
            }
            return true
        }
    }

    /// Removes the handlers of `module` for the event types `events`.
    func removeHandlers(of module: ModuleLife, events: [ObjectIdentifier]) {
        lists.withLock { lists in
            for event in events { lists[event]?.removeHandlers(of: module) }
        }
    }

    /// A snapshot: handlers added or removed later do not change a dispatch
    /// already under way.
    ///
    /// Inlinable, so that it is specialized for the event type: no generic
    /// metadata is looked up per dispatch.
    @inlinable
    func handlers<Event: ModuleEvent>(for _: Event.Type) -> (handlers: [EventHandler<Event, Event.Reply>], modules: [String]) {
        guard let table = table(of: ObjectIdentifier(Event.self)) else { return ([], []) }
        // The key is the event type: the table under it is of that type.
        let handlers = unsafeDowncast(table, to: HandlerTable<Event, Event.Reply>.self)
        return (handlers.handlers, handlers.modules)
    }

    /// The ``HandlerTable`` of the event type `event` identifies, if any
    /// module handles it.
    @usableFromInline
    func table(of event: ObjectIdentifier) -> AnyObject? {
        lists.withLock { $0[event]?.table() }
    }
}
