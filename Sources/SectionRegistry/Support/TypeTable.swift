/// Values by type identity: a dictionary keyed by `ObjectIdentifier`, in a
/// struct of its own.
///
/// Why not `[ObjectIdentifier: Value]` under the lock directly: the lock's
/// metadata would then need the dictionary type's, and making that checks
/// `ObjectIdentifier: Hashable`, a first-use search of every loaded image's
/// conformance records, paid when the host is made, whether or not a module
/// registers anything. This struct's metadata needs only `Value`'s; the
/// search waits for the first insertion.
struct TypeTable<Value> {
    private var byType: [ObjectIdentifier: Value] = [:]

    subscript(_ type: ObjectIdentifier) -> Value? {
        get { byType[type] }
        set { byType[type] = newValue }
    }

    var values: Dictionary<ObjectIdentifier, Value>.Values {
        byType.values
    }
}

extension TypeTable: Sendable where Value: Sendable {}
