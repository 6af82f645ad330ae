extension ELFFile {
    /// What the dynamic linker reads of this image to load what it needs:
    /// its `DT_NEEDED` names in order, and its `DT_RUNPATH` (or, without
    /// one, `DT_RPATH`) folders, as written (`$ORIGIN` unexpanded).
    package func dynamicDependencies() throws(ELFError) -> (needed: [String], searchPaths: [String]) {
        guard let dynamic = sections.first(where: { $0.type == Section.dynamic }),
              sections.indices.contains(Int(dynamic.link)) else { return ([], []) }
        let strings = sections[Int(dynamic.link)]
        let entries = Array(try contents(of: dynamic))
        let reader = ByteReader(entries)
        let fileReader = ByteReader(bytes)
        var needed: [String] = []
        var runPath: [String]?
        var rPath: [String]?
        for start in stride(from: 0, to: entries.count - 15, by: 16) {
            let what = "an entry of \(dynamic.name)"
            let tag = try reader.u64(start, what)
            guard tag == 1 || tag == 15 || tag == 29 else {
                if tag == 0 { break }  // DT_NULL ends the table
                continue
            }
            let string = try fileReader.cString(at: strings.offset, plus: try reader.u64(start + 8, what), within: strings.size,
                                                "\(dynamic.name)'s names")
            switch tag {
            case 1: needed.append(string)  // DT_NEEDED
            case 15: rPath = string.split(separator: ":").map(String.init)  // DT_RPATH
            default: runPath = string.split(separator: ":").map(String.init)  // DT_RUNPATH
            }
        }
        return (needed, runPath ?? rPath ?? [])
    }

    /// Whether the symbol table `table` (`.dynsym` or `.symtab`) defines
    /// `symbol`: a definition, not a reference to another image's.
    package func defines(_ symbol: String, in table: String) throws(ELFError) -> Bool {
        guard let table = section(named: table), sections.indices.contains(Int(table.link)) else { return false }
        let strings = sections[Int(table.link)]
        let entries = Array(try contents(of: table))
        let reader = ByteReader(entries)
        let fileReader = ByteReader(bytes)
        let wanted = Array(symbol.utf8)
        for start in stride(from: 0, to: entries.count - 23, by: 24) {
            let what = "a symbol of \(table.name)"
            guard try reader.u16(start + 6, what) != 0 else { continue }  // SHN_UNDEF: a reference
            let name = try fileReader.cString(at: strings.offset, plus: UInt64(try reader.u32(start, what)), within: strings.size,
                                              "\(table.name)'s names")
            if name.utf8.elementsEqual(wanted) { return true }
        }
        return false
    }
}
