/// Sizes of an ELF file's sections, as `readelf -S -W` lists them.
struct ELFSizes {
    /// One section header: name, type, size and flags.
    private struct Section {
        let name: String
        let type: String
        let size: Int
        let flags: String
    }

    private let sections: [Section]
    private let path: String

    init(of path: String) throws {
        self.path = path
        // "  [Nr] Name  Type  Address  Off  Size  ES  Flg  Lk  Inf  Al"; a
        // section without flags shows none, so its Lk lands in the flags
        // column: a number, never an "A".
        sections = try ProcessTiming.output(of: ["/usr/bin/env", "readelf", "-S", "-W", path])
            .split(separator: "\n")
            .compactMap { line -> Section? in
                guard let bracket = line.firstIndex(of: "]") else { return nil }
                let fields = line[line.index(after: bracket)...].split(separator: " ")
                guard fields.count >= 7, fields[1] != "NULL", fields[1] != "Type",
                      let size = Int(fields[4], radix: 16) else { return nil }
                return Section(name: String(fields[0]), type: String(fields[1]), size: size, flags: String(fields[6]))
            }
    }

    /// Bytes of the sections loaded at run time (SHF_ALLOC) that the file
    /// holds (not NOBITS).
    var allocatedBytes: Int {
        sections.filter { $0.flags.contains("A") && $0.type != "NOBITS" }.reduce(0) { $0 + $1.size }
    }

    /// The size of section `name`.
    func size(of name: String) throws(RunnerError) -> Int {
        guard let section = sections.first(where: { $0.name == name }) else {
            throw RunnerError("\(path) has no section \(name)")
        }
        return section.size
    }
}
