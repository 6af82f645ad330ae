/// Values by type identity, in a list sorted by the types' identities.
///
/// Not a `[ObjectIdentifier: Value]`: making a dictionary's type checks
/// `ObjectIdentifier: Hashable`, a search of every loaded image's
/// conformance records (about 0.19 M instructions) on the first insertion
/// of the process, which a tool paid at each invocation. A program has tens
/// of event and service types: a binary search finds one in as few steps as
/// a hash would, and types registered in the order they are defined (one
/// module's after another's) are added at the end and, at the shutdown,
/// removed from it.
struct TypeTable<Value> {
    fileprivate struct Keyed {
        let type: UInt
        var value: Value
    }

    private var entries: [Keyed] = []

    subscript(_ type: ObjectIdentifier) -> Value? {
        get {
            let (index, found) = place(of: UInt(bitPattern: type))
            return found ? entries[index].value : nil
        }
        set {
            let key = UInt(bitPattern: type)
            let (index, found) = place(of: key)
            switch (found, newValue) {
            case (true, let value?): entries[index].value = value
            case (true, nil): entries.remove(at: index)
            case (false, let value?): entries.insert(Keyed(type: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    /// Every value, in no particular order.
    var values: [Value] {
        entries.map(\.value)
    }

    /// Where the entry of `type` is, or where it would go.
    private func place(of type: UInt) -> (index: Int, found: Bool) {
        // The last entry first: types are mostly added in order.
        if let last = entries.last, last.type <= type { return last.type == type ? (entries.count - 1, true) : (entries.count, false) }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].type == type { return (middle, true) }
            if entries[middle].type < type { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }
}

extension TypeTable: Sendable where Value: Sendable {}
extension TypeTable.Keyed: Sendable where Value: Sendable {}
