import ModuleRecords

/// The module records of an ELF binary, read with the runtime's own decoder
/// and checked with the runtime's own rules, without running it.
package struct ModuleInspection: Sendable {
    /// One valid module record.
    package struct Record: Sendable {
        package let declaration: ModuleDeclaration
        /// The factory's run-time address (before any load bias).
        package let factoryAddress: UInt64
        /// The factory's symbol, when the file's symbol table has it.
        package let factorySymbol: String?
    }

    /// The valid module records, in declared order.
    package let records: [Record]
    /// Malformed records, duplicate names, or no module at all.
    package let problems: [DiscoveryProblem]
    /// Cycles and missing or later-level dependencies.
    package let orderingProblems: [OrderingProblem]
    /// Factories linked without their registration: the `NAME` of every
    /// defined function `app_module_NAME` that no record names.
    package let orphanFactories: [String]
    /// The `app_modules` section header.
    package let section: ELFFile.Section
    /// The image's SectionRegistry note, which leads the runtime to the
    /// section, or why it would not.
    package let note: Result<ImageNote, NoteProblem>
    /// Whether the file has its full symbol table (`.symtab`): a stripped
    /// one names factories only if they are exported.
    package let hasSymbols: Bool

    /// Reads the `app_modules` section of `file`; record locations name
    /// `image`, when given.
    package init(_ file: ELFFile, image: String? = nil) throws(InspectionError) {
        guard file.fileType == 2 || file.fileType == 3 else { throw .notLinked(fileType: file.fileType) }
        guard let section = file.section(named: "app_modules") else { throw .noSection }
        guard section.isAllocated, section.hasFileBytes else { throw .sectionNotLoaded }
        self.section = section
        let bytes: [UInt8]
        let relocated: [UInt64: UInt64]
        let functions: [(address: UInt64, name: String)]?
        do {
            bytes = Array(try file.contents(of: section))
            let (end, overflow) = section.address.addingReportingOverflow(section.size)
            relocated = overflow ? [:] : try file.relocatedValues(in: section.address..<end)
            functions = try file.definedFunctions()
            note = try ImageNote.read(from: file, for: section)
        } catch {
            throw .elf(error)
        }
        hasSymbols = file.section(named: ".symtab") != nil
        let memory = FileMemory(file: file, sectionAddress: section.address, relocated: relocated)
        let scan = bytes.withUnsafeBytes { SectionScan($0, memory: memory, image: image) }
        let checked = RegistryRules.check(scan.modules.map(\.declaration), problems: scan.problems)
        problems = checked.problems
        var names: [UInt64: String] = [:]
        for function in functions ?? [] where names[function.address] == nil { names[function.address] = function.name }
        records = checked.declaredOrder.map { index in
            let module = scan.modules[index]
            let symbol = names[module.factory].map { Self.readable($0, module: module.declaration.name) }
            return Record(declaration: module.declaration, factoryAddress: module.factory, factorySymbol: symbol)
        }
        orphanFactories = RegistryRules.orphanFactories(among: (functions ?? []).map(\.name),
                                                        registered: records.map(\.declaration.name))
        orderingProblems = Self.orderingProblems(of: records.map(\.declaration))
    }

    /// The factory of a record `@AppModule` wrote is a closure in the
    /// record's constant, whose mangled name says nothing to a reader.
    private static func readable(_ symbol: String, module: String) -> String {
        // The mangling may abbreviate the module's name after the prefix.
        guard symbol.hasPrefix("$s"), symbol.contains("_appModuleRecord_") else { return symbol }
        return "@AppModule \(module)()"
    }

    private static func orderingProblems(of declarations: [ModuleDeclaration]) -> [OrderingProblem] {
        do {
            _ = try StartOrder.resolve(declarations, disabled: [])
            return []
        } catch {
            return error.orderingProblems
        }
    }
}

/// Why a file has no module records to inspect.
package enum InspectionError: Error, Sendable, Equatable, CustomStringConvertible {
    case elf(ELFError)
    case notLinked(fileType: UInt16)
    case noSection
    case sectionNotLoaded

    package var description: String {
        switch self {
        case .elf(let error):
            "\(error)"
        case .notLinked(let fileType):
            "not a linked executable or shared object (ELF type \(fileType)): inspect the binary the linker made"
        case .noSection:
            "no app_modules section: the binary does not link SectionRegistry, or the linker discarded the section"
        case .sectionNotLoaded:
            "the app_modules section is not loaded at run time (not SHF_ALLOC, or NOBITS): its records would not be seen"
        }
    }
}

/// Record pointers followed through a file: relocated, then looked up in
/// the allocated section that holds them.
struct FileMemory: RecordMemory {
    let file: ELFFile
    let sectionAddress: UInt64
    let relocated: [UInt64: UInt64]

    func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        relocated[sectionAddress &+ UInt64(sectionOffset)] ?? stored
    }

    func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        file.string(atAddress: address).map { $0.withUnsafeBytes(body) }
    }
}
