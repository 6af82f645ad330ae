#if canImport(Glibc)
import Glibc
#endif

extension RegistryEntry {
    /// The order modules are listed and created in: by level, then by
    /// priority (higher first), then by name, byte by byte. Link order and
    /// section order never matter: linkers do not promise either.
    func precedesInDeclaredOrder(_ other: some RegistryEntry) -> Bool {
        if level != other.level { return level < other.level }
        if priority != other.priority { return priority > other.priority }
        return withNameBytes { name in other.withNameBytes { otherName in Self.compare(name, otherName) < 0 } }
    }

    /// Whether the name is `bytes`.
    func hasName(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withNameBytes { Self.compare($0, bytes) == 0 }
    }

    /// `memcmp` order, the shorter name first when one begins the other.
    private static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0 {
            let order = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }
}
