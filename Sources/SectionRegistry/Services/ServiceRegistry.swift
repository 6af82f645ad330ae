
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
        /// The shared instance, created under a lock of its own so that
        /// creating one service may look up others.
        let sharedInstance = Locked<(any Sendable)?>(nil)

        init(name: String, provider: String, lifetime: ServiceLifetime, make: @escaping @Sendable () throws -> any Sendable) {
            self.name = name
            self.provider = provider
            self.lifetime = lifetime
            self.make = make
        }
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// The services being created by the current task, to catch cycles
    /// instead of deadlocking on them.
    @TaskLocal private static var creating: Set<ObjectIdentifier> = []

    func register<Service: Sendable>(
        _ type: Service.Type,
        by provider: String,
        lifetime: ServiceLifetime,
        make: @escaping @Sendable () throws -> Service
    ) throws(ServiceError) {
        let entry = Entry(name: String(reflecting: type), provider: provider, lifetime: lifetime, make: make)
        let existing = entries.withLock { entries -> Entry? in
            if let existing = entries[ObjectIdentifier(type)] { return existing }
            entries[ObjectIdentifier(type)] = entry
            return nil
        }
        if let existing { throw .duplicate(entry.name, registeredBy: existing.provider, again: provider) }
    }

    func resolve<Service: Sendable>(_ type: Service.Type, for requester: String) throws(ServiceError) -> Service {
        let key = ObjectIdentifier(type)
        guard let entry = entries.withLock({ $0[key] }) else {
            let registered = entries.withLock { $0.values.map(\.name).sorted() }
            throw .missing(String(reflecting: type), requester: requester, registered: registered)
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
            instance = try entry.sharedInstance.withLock { (value) throws(ServiceError) -> any Sendable in
                if let value { return value }
                let created = try create()
                value = created
                return created
            }
        case .perLookup:
            instance = try create()
        }
        return instance as! Service
    }

    /// Forgets the services `provider` registered; instances already handed
    /// out stay with whoever holds them.
    func removeServices(of provider: String) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.provider != provider }
        }
    }
}
