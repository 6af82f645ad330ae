/// A little-endian ELF64 file, read without running it: its sections,
/// dynamic relocations and symbols. Every read is bounds-checked, so any
/// input gives an ``ELFError`` at worst.
package struct ELFFile: Sendable {
    /// One section header.
    package struct Section: Sendable {
        package let name: String
        package let type: UInt32
        package let flags: UInt64
        package let address: UInt64
        package let offset: UInt64
        package let size: UInt64
        package let link: UInt32
        package let alignment: UInt64
        package let entrySize: UInt64

        static let allocated: UInt64 = 0x2
        static let retained: UInt64 = 0x20_0000  // SHF_GNU_RETAIN
        static let noBits: UInt32 = 8
        static let note: UInt32 = 7
        static let dynamic: UInt32 = 6
        static let symbolTable: UInt32 = 2
        static let dynamicSymbols: UInt32 = 11
        static let relocationsWithAddends: UInt32 = 4

        package var isAllocated: Bool { flags & Self.allocated != 0 }
        package var isRetained: Bool { flags & Self.retained != 0 }
        package var hasFileBytes: Bool { type != Self.noBits }
    }

    /// The object file kind: `ET_REL` (1), `ET_EXEC` (2), `ET_DYN` (3).
    package let fileType: UInt16
    package let machine: UInt16
    package let sections: [Section]
    let bytes: [UInt8]

    package init(bytes: [UInt8]) throws(ELFError) {
        self.bytes = bytes
        let reader = ByteReader(bytes)
        guard bytes.count >= 4, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else { throw .notELF }
        guard bytes.count >= 64 else { throw .truncated("the ELF header") }
        guard bytes[4] == 2 else { throw bytes[4] == 1 ? .notSixtyFourBit : .malformed("EI_CLASS \(bytes[4])") }
        guard bytes[5] == 1 else { throw bytes[5] == 2 ? .bigEndian : .malformed("EI_DATA \(bytes[5])") }
        fileType = try reader.u16(16, "the ELF header")
        machine = try reader.u16(18, "the ELF header")
        let sectionHeaders = try reader.u64(40, "the ELF header")
        let entrySize = try reader.u16(58, "the ELF header")
        let count = try reader.u16(60, "the ELF header")
        let namesIndex = try reader.u16(62, "the ELF header")
        guard count == 0 || entrySize >= 64 else { throw .malformed("section header size \(entrySize)") }
        guard namesIndex < count || count == 0 else { throw .malformed("section name table index \(namesIndex) of \(count)") }

        var headers: [(nameOffset: UInt32, section: Section)] = []
        for index in 0..<Int(count) {
            let (start, overflow) = sectionHeaders.addingReportingOverflow(UInt64(index) * UInt64(entrySize))
            guard !overflow, start <= UInt64(bytes.count) else { throw .truncated("section header \(index)") }
            let at = Int(start)
            let what = "section header \(index)"
            headers.append((try reader.u32(at, what), Section(
                name: "",
                type: try reader.u32(at + 4, what),
                flags: try reader.u64(at + 8, what),
                address: try reader.u64(at + 16, what),
                offset: try reader.u64(at + 24, what),
                size: try reader.u64(at + 32, what),
                link: try reader.u32(at + 40, what),
                alignment: try reader.u64(at + 48, what),
                entrySize: try reader.u64(at + 56, what)
            )))
        }
        let names = count == 0 ? nil : headers[Int(namesIndex)].section
        sections = try headers.map { header throws(ELFError) in
            let name = try names.map { table throws(ELFError) in
                try reader.cString(at: table.offset, plus: UInt64(header.nameOffset), within: table.size, "the section name table")
            } ?? ""
            let s = header.section
            return Section(name: name, type: s.type, flags: s.flags, address: s.address, offset: s.offset,
                           size: s.size, link: s.link, alignment: s.alignment, entrySize: s.entrySize)
        }
    }

    /// The first section called `name`.
    package func section(named name: String) -> Section? {
        sections.first { $0.name == name }
    }

    /// The file bytes of `section`.
    package func contents(of section: Section) throws(ELFError) -> ArraySlice<UInt8> {
        guard section.hasFileBytes else { return [] }
        return try ByteReader(bytes).slice(at: section.offset, count: section.size, "section \(section.name)")
    }

    /// The NUL-terminated string at run-time `address`, from the allocated
    /// section that holds it; `nil` if none does or it is unterminated.
    func string(atAddress address: UInt64) -> ArraySlice<UInt8>? {
        guard let section = sections.first(where: {
            $0.isAllocated && $0.hasFileBytes && address >= $0.address && address - $0.address < $0.size
        }) else { return nil }
        let delta = address - section.address
        let (start, overflow) = section.offset.addingReportingOverflow(delta)
        guard !overflow, let data = try? ByteReader(bytes).slice(at: start, count: section.size - delta, "a string"),
              let end = data.firstIndex(of: 0) else { return nil }
        return data[..<end]
    }
}

/// Bounds-checked little-endian reads.
struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func slice(at offset: UInt64, count: UInt64, _ what: String) throws(ELFError) -> ArraySlice<UInt8> {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= UInt64(bytes.count) else { throw .truncated(what) }
        return bytes[Int(offset)..<Int(end)]
    }

    func u16(_ offset: Int, _ what: String) throws(ELFError) -> UInt16 { UInt16(try integer(offset, 2, what)) }
    func u32(_ offset: Int, _ what: String) throws(ELFError) -> UInt32 { UInt32(try integer(offset, 4, what)) }
    func u64(_ offset: Int, _ what: String) throws(ELFError) -> UInt64 { try integer(offset, 8, what) }

    private func integer(_ offset: Int, _ width: Int, _ what: String) throws(ELFError) -> UInt64 {
        guard offset >= 0, offset <= bytes.count - width else { throw .truncated(what) }
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    func cString(at base: UInt64, plus offset: UInt64, within size: UInt64, _ what: String) throws(ELFError) -> String {
        guard offset < size else { throw .malformed("a name offset past \(what)") }
        let data = try slice(at: base, count: size, what).dropFirst(Int(offset))
        guard let end = data.firstIndex(of: 0) else { throw .malformed("an unterminated name in \(what)") }
        return String(decoding: data[..<end], as: UTF8.self)
    }
}
