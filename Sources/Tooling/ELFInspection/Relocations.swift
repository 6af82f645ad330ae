extension ELFFile {
    /// The values the dynamic linker stores at run-time addresses in
    /// `range`: relative relocations (the base-address-independent value a
    /// PIE stores) and absolute ones against a symbol, for x86-64 and
    /// AArch64.
    func relocatedValues(in range: Range<UInt64>) throws(ELFError) -> [UInt64: UInt64] {
        var values: [UInt64: UInt64] = [:]
        for table in sections where table.type == Section.relocationsWithAddends {
            let symbols = sections.indices.contains(Int(table.link)) ? try symbolValues(in: sections[Int(table.link)]) : [:]
            let entries = try contents(of: table)
            let reader = ByteReader(Array(entries))
            for start in stride(from: 0, to: entries.count - 23, by: 24) {
                let what = "a relocation in \(table.name)"
                let offset = try reader.u64(start, what)
                guard range.contains(offset) else { continue }
                let info = try reader.u64(start + 8, what)
                let addend = try reader.u64(start + 16, what)
                switch (machine, UInt32(truncatingIfNeeded: info)) {
                case (62, 8), (183, 1027):  // R_X86_64_RELATIVE, R_AARCH64_RELATIVE
                    values[offset] = addend
                case (62, 1), (183, 257):  // R_X86_64_64, R_AARCH64_ABS64
                    values[offset] = (symbols[Int(info >> 32)] ?? 0) &+ addend
                default:
                    continue
                }
            }
        }
        return values
    }

    /// The value of every symbol of a symbol table, by index.
    private func symbolValues(in table: Section) throws(ELFError) -> [Int: UInt64] {
        guard table.type == Section.symbolTable || table.type == Section.dynamicSymbols else { return [:] }
        let entries = Array(try contents(of: table))
        let reader = ByteReader(entries)
        var values: [Int: UInt64] = [:]
        for (index, start) in stride(from: 0, to: entries.count - 23, by: 24).enumerated() {
            values[index] = try reader.u64(start + 8, "a symbol of \(table.name)")
        }
        return values
    }

    /// Every defined function symbol, from `.symtab`, or `.dynsym` when the
    /// file is stripped; `nil` when it has neither. One address may have
    /// several names.
    func definedFunctions() throws(ELFError) -> [(address: UInt64, name: String)]? {
        guard let table = section(named: ".symtab") ?? section(named: ".dynsym"),
              sections.indices.contains(Int(table.link)) else { return nil }
        let strings = sections[Int(table.link)]
        let entries = Array(try contents(of: table))
        let reader = ByteReader(entries)
        let fileReader = ByteReader(bytes)
        var functions: [(address: UInt64, name: String)] = []
        for start in stride(from: 0, to: entries.count - 23, by: 24) {
            let what = "a symbol of \(table.name)"
            let info = entries[start + 4]
            let value = try reader.u64(start + 8, what)
            guard info & 0xF == 2, value != 0 else { continue }  // STT_FUNC, defined
            let name = try fileReader.cString(at: strings.offset, plus: UInt64(try reader.u32(start, what)), within: strings.size, "\(table.name)'s names")
            functions.append((value, name))
        }
        return functions
    }
}
