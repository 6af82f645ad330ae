/// The name-to-position map of a registry, keyed by the names' bytes: a
/// record's name is hashed and compared where it lies, with no `String`
/// made for it.
///
/// Open addressing with linear probing. A slot holds the high half of the
/// name's hash and the position plus one; zero is empty.
package struct NameTable: Sendable {
    private var slots: [UInt64]

    /// A table for `count` names, at most half full.
    init(expecting count: Int) {
        var capacity = 8
        while capacity < 2 * count { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
    }

    /// Puts `position` under `name` and returns the position the name had,
    /// if any. `isName(p, name)` says whether position `p` has that name.
    mutating func update(
        _ position: Int, name: UnsafeRawBufferPointer, isName: (Int, UnsafeRawBufferPointer) -> Bool
    ) -> Int? {
        let hash = Self.hash(name)
        let entry = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(position + 1)
        return slots.withUnsafeMutableBufferPointer { slots in
            var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[slot] != 0 {
                if slots[slot] >> 32 == hash >> 32 {
                    let other = Int(slots[slot] & 0xFFFF_FFFF) - 1
                    if isName(other, name) {
                        slots[slot] = entry
                        return other
                    }
                }
                slot = (slot + 1) & (slots.count - 1)
            }
            slots[slot] = entry
            return nil
        }
    }

    /// The position under `name`, or `nil`.
    func position(of name: UnsafeRawBufferPointer, isName: (Int, UnsafeRawBufferPointer) -> Bool) -> Int? {
        let hash = Self.hash(name)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            if slots[slot] >> 32 == hash >> 32 {
                let position = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if isName(position, name) { return position }
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// FNV-1a, 64 bits: names are short, and their bytes differ late
    /// ("Module0041", "Module0042"), which FNV mixes well enough.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
