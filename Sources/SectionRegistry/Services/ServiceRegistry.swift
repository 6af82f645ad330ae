
/// Whether a service lookup returns one instance or a new one each time.
public enum ServiceLifetime: Sendable {
    /// Created on the first lookup, then shared by every lookup.
    case shared
    /// Created anew for every lookup.
    case perLookup
}

/// The services modules offer each other, by type (seed 001's
/// `getService(by:)`, BeeHive's services): registered by one module, found by
/// any, created lazily.
final class ServiceRegistry: Sendable {
    private final class Entry: Sendable {
        let name: String
        let provider: String
        let lifetime: ServiceLifetime
        let make: @Sendable () throws -> any Sendable
        /// The shared instance, once created.
        let sharedInstance = Locked<(any Sendable)?>(nil)

        init(name: String, provider: String, lifetime: ServiceLifetime, make: @escaping @Sendable () throws -> any Sendable) {
            self.name = name
            self.provider = provider
            self.lifetime = lifetime
            self.make = make
        }
    }

    private let entries = Locked(TypeTable<Entry>())

    /// The services being created by the current task, to catch cycles
    /// instead of deadlocking on them.
    @TaskLocal private static var creating: Set<ObjectIdentifier> = []

    /// Held while a task creates shared instances, with every service they
    /// look up in turn: one chain of creations at a time. A lock per service
    /// would deadlock two tasks that resolve the two ends of a cycle at once
    /// (each holding one and waiting for the other), where one chain finds
    /// the cycle in ``creating`` and throws. `make` is synchronous, so the
    /// lock is never held across a suspension. Its value counts the chains
    /// run: a `Locked<Void>` made ThreadSanitizer report the zero-size
    /// value's access as a race, where a real value under the lock is not.
    private let creation = Locked(0)
    /// Whether the current task holds ``creation``.
    @TaskLocal private static var createsShared = false

    /// Registers `type` for `provider`, while it is alive.
    ///
    /// - Returns: `false` if the provider is no longer alive (nothing is
    ///   registered); the first such refusal in `firstRefusal`.
    func register<Service: Sendable>(
        _ type: Service.Type,
        by provider: ModuleLife,
        lifetime: ServiceLifetime,
        make: @escaping @Sendable () throws -> Service
    ) throws(ServiceError) -> (accepted: Bool, firstRefusal: Bool) {
        let entry = Entry(name: fullName(of: type), provider: provider.moduleName, lifetime: lifetime, make: make)
        var existing: Entry?
        let registration = provider.register(service: ObjectIdentifier(type)) {
            existing = entries.withLock { entries -> Entry? in
                if let existing = entries[ObjectIdentifier(type)] { return existing }
                entries[ObjectIdentifier(type)] = entry
                return nil
            }
            return existing == nil
        }
        if let existing { throw .duplicate(entry.name, registeredBy: existing.provider, again: provider.moduleName) }
        return registration
    }

    func resolve<Service: Sendable>(_ type: Service.Type, for requester: String) throws(ServiceError) -> Service {
        let key = ObjectIdentifier(type)
        guard let entry = entries.withLock({ $0[key] }) else {
            let registered = entries.withLock { $0.values.map(\.name).sorted() }
            throw .missing(fullName(of: type), requester: requester, registered: registered)
        }
        guard !Self.creating.contains(key) else { throw .cycle(entry.name, requester: requester) }
        let create = { () throws(ServiceError) -> any Sendable in
            do {
                return try Self.$creating.withValue(Self.creating.union([key])) { try entry.make() }
            } catch let error as ServiceError {
                throw error
            } catch {
                throw .creationFailed(entry.name, provider: entry.provider, error: error)
            }
        }
        let instance: any Sendable
        switch entry.lifetime {
        case .shared:
            if let existing = entry.sharedInstance.withLock({ $0 }) {
                instance = existing
            } else if Self.createsShared {
                instance = try Self.createShared(entry, with: create)
            } else {
                instance = try creation.withLock { chains in
                    chains += 1
                    return Self.$createsShared.withValue(true) {
                        Result { () throws(ServiceError) in try Self.createShared(entry, with: create) }
                    }
                }.get()
            }
        case .perLookup:
            instance = try create()
        }
        return instance as! Service
    }

    /// The shared instance of `entry`, created with `create` unless another
    /// chain made it meanwhile; under ``creation``.
    private static func createShared(
        _ entry: Entry, with create: () throws(ServiceError) -> any Sendable
    ) throws(ServiceError) -> any Sendable {
        if let existing = entry.sharedInstance.withLock({ $0 }) { return existing }
        let created = try create()
        entry.sharedInstance.withLock { $0 = created }
        return created
    }

    /// Forgets the services of `types` that `provider` registered;
    /// instances already handed out stay with whoever holds them.
    func removeServices(of provider: String, types: [ObjectIdentifier]) {
        entries.withLock { entries in
            for type in types where entries[type]?.provider == provider {
                entries[type] = nil
            }
        }
    }
}
