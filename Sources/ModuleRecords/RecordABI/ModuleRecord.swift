import CSectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// Reads one `app_module_record` (record ABI version 2, see
/// `CSectionRegistry/include/RecordABI.md`) and checks every field: the one
/// decoder of the runtime and the inspector.
///
/// The checks are written once and run two ways: ``isValid(_:byteOffset:memory:)``
/// only learns whether a record passes, building nothing, so that discovery
/// can index records where they lie; ``decode(_:index:byteOffset:memory:image:sourceFiles:)``
/// collects every defect and builds the declaration.
package enum ModuleRecord {
    // Computed, not stored: constants, with no lazy initialisation to
    // check on every record.
    package static var size: Int { Int(APP_MODULE_RECORD_SIZE) }
    /// A record and its text slots: a record written from Swift.
    static var maximumSize: Int { Int(APP_MODULE_MAX_RECORD_SIZE) }
    static var textCapacity: Int { Int(APP_MODULE_TEXT_CAPACITY) }
    static var nameCapacity: Int { Int(APP_MODULE_NAME_CAPACITY) }
    static var nameOffset: Int { MemoryLayout<app_module_record>.offset(of: \.name)! }

    /// What one record slot holds.
    package enum Contents {
        /// A reserved (0) or unknown kind: padding, the anchor, or a record of
        /// another kind. Readers skip it.
        case skipped
        /// A valid module record, and its factory's address as the program
        /// sees it at run time.
        case module(ModuleDeclaration, factory: UInt64)
        /// A module record that fails one or more checks; `name` is its name
        /// when that much could be read.
        case defective(RecordLocation, name: String?, [RecordDefect])
    }

    /// What ``check(_:byteOffset:memory:)`` finds in a slot.
    package enum SlotCheck: Equatable {
        /// A slot readers skip.
        case skipped
        /// A module record that passes every check; its name is this many
        /// bytes.
        case valid(nameLength: Int)
        /// A module record with a defect, which
        /// ``decode(_:index:byteOffset:memory:image:sourceFiles:)`` describes.
        case defective
    }

    /// Whether the slot `byteOffset` bytes into `section` holds a module
    /// record that passes every check ``decode(_:index:byteOffset:memory:image:sourceFiles:)``
    /// makes. Allocates nothing for a record with an ASCII name and `.after`
    /// list.
    package static func check(_ section: UnsafeRawBufferPointer, byteOffset: Int, memory: some RecordMemory) -> SlotCheck {
        let slot = RecordSlot(section, byteOffset: byteOffset, memory: memory)
        guard slot.record.kind == APP_MODULE_KIND_MODULE else { return .skipped }
        var defects = AnyDefect()
        let nameLength = slot.check(into: &defects)
        guard !defects.found, let nameLength else { return .defective }
        return .valid(nameLength: nameLength)
    }

    /// Decodes the record that starts `byteOffset` bytes into `section`,
    /// which holds at least ``size`` bytes from there, following its
    /// pointers through `memory`.
    static func decode(
        _ section: UnsafeRawBufferPointer, index: Int, byteOffset: Int,
        memory: some RecordMemory, image: String?, sourceFiles: inout SourceFileNames
    ) -> Contents {
        let slot = RecordSlot(section, byteOffset: byteOffset, memory: memory)
        guard slot.record.kind == APP_MODULE_KIND_MODULE else { return .skipped }
        var defects: [RecordDefect] = []
        let name = slot.check(into: &defects).map { _ in slot.name }
        let sourceFile = slot.sourceFile(&sourceFiles)
        let location = RecordLocation(index: index, byteOffset: byteOffset, sourceFile: sourceFile, image: image)
        guard defects.isEmpty, let name else {
            return .defective(location, name: name, defects)
        }
        return .module(slot.declaration(name: name, location: location), factory: slot.factory)
    }

    /// The declaration of the valid record at `record`, a record of this
    /// process whose pointers lead into `memory`, as
    /// ``decode(_:index:byteOffset:memory:image:sourceFiles:)`` makes it.
    static func declaration(at record: UnsafeRawPointer, location: RecordLocation, memory: some RecordMemory) -> ModuleDeclaration {
        let slot = checkedSlot(at: record, memory: memory)
        return slot.declaration(name: slot.name, location: location)
    }

    /// Whether the valid record at `record` names modules it comes after,
    /// found without decoding the list.
    static func hasDependencies(at record: UnsafeRawPointer) -> Bool {
        checkedSlot(at: record, memory: ProcessMemory()).hasText(.after)
    }

    /// The source file the valid record at `record` names, if any.
    static func sourceFile(at record: UnsafeRawPointer, memory: some RecordMemory) -> String? {
        var sourceFiles = SourceFileNames()
        return checkedSlot(at: record, memory: memory).sourceFile(&sourceFiles)
    }

    /// A valid record of this process and its text slots, whose size it
    /// gives.
    private static func checkedSlot<Memory>(at record: UnsafeRawPointer, memory: Memory) -> RecordSlot<Memory> {
        let size = record.load(fromByteOffset: MemoryLayout<app_module_record>.offset(of: \.size)!, as: UInt16.self)
        return RecordSlot(UnsafeRawBufferPointer(start: record, count: Int(size)), byteOffset: 0, memory: memory)
    }

    /// A text a record may carry, inline in a text slot or behind a
    /// pointer.
    enum TextField: UInt8 {
        case after = 1
        case sourceFile = 2
    }


    /// The bytes of the inline name before its NUL, or `nil` without one.
    static func nameBytes(at record: UnsafeRawPointer) -> UnsafeRawBufferPointer? {
        let field = record + nameOffset
        guard let end = memchr(field, 0, nameCapacity) else { return nil }
        return UnsafeRawBufferPointer(start: field, count: UnsafeRawPointer(end) - field)
    }

    /// Checks the inline name: NUL-terminated within its field, non-empty,
    /// UTF-8, and usable in an `.after` list. Names are C identifiers in
    /// practice: ASCII bytes are checked directly, and Unicode properties
    /// looked up only for other names.
    fileprivate static func checkName(at record: UnsafeRawPointer, into defects: inout some DefectSink) -> Int? {
        guard let bytes = nameBytes(at: record) else {
            defects.add(.unterminatedName)
            return nil
        }
        guard !bytes.isEmpty else {
            defects.add(.emptyName)
            return nil
        }
        // One pass without a branch per byte: the bits of every byte or'ed
        // (bit 7 set: not ASCII), and whether any byte is a blank, a
        // control or a comma.
        var bits: UInt8 = 0, hasSeparatorOrControl = false
        for byte in bytes {
            bits |= byte
            hasSeparatorOrControl = hasSeparatorOrControl || byte <= 0x20 || byte == UInt8(ascii: ",") || byte == 0x7F
        }
        if bits < 0x80 {
            if hasSeparatorOrControl {
                defects.add(.invalidNameCharacter(String(decoding: bytes, as: UTF8.self)))
            }
            return bytes.count
        }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            defects.add(.nameNotUTF8)
            return nil
        }
        if name.unicodeScalars.contains(where: isSeparatorOrControl) {
            defects.add(.invalidNameCharacter(name))
        }
        return bytes.count
    }

    /// Checks the `.after` list: UTF-8, and no empty entry between its
    /// commas once blanks around names are trimmed.
    fileprivate static func checkDependencies(_ list: UnsafeRawBufferPointer, into defects: inout some DefectSink) {
        if list.allSatisfy({ $0 < 0x80 }) {
            // ASCII white space is what Character.isWhitespace finds in ASCII.
            let hasEmptyEntry = list.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .contains { $0.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) } }
            if hasEmptyEntry { defects.add(.emptyDependency(list: String(decoding: list, as: UTF8.self))) }
            return
        }
        guard let text = String(validating: list, as: UTF8.self) else {
            defects.add(.dependenciesNotUTF8)
            return
        }
        if dependencies(of: text).contains(where: \.isEmpty) {
            defects.add(.emptyDependency(list: text))
        }
    }

    /// The names in a checked `.after` list, blanks around them trimmed.
    fileprivate static func dependencies(_ list: UnsafeRawBufferPointer) -> [String] {
        dependencies(of: String(decoding: list, as: UTF8.self))
    }

    private static func dependencies(of list: String) -> [String] {
        list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
    }

    private static func isSeparatorOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "," || scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
}

/// Where the record checks put what they find.
protocol DefectSink {
    mutating func add(_ defect: @autoclosure () -> RecordDefect)
}

extension Array: DefectSink where Element == RecordDefect {
    mutating func add(_ defect: @autoclosure () -> RecordDefect) {
        append(defect())
    }
}

/// Only whether a record has a defect: nothing is built.
private struct AnyDefect: DefectSink {
    var found = false

    mutating func add(_ defect: @autoclosure () -> RecordDefect) {
        found = true
    }
}

/// The source file names of a section's records, read once per distinct
/// address: the records of one C file all point at one string.
struct SourceFileNames {
    private var last: (address: UInt64, name: String?)?

    mutating func name(at address: UInt64, memory: some RecordMemory) -> String? {
        guard address != 0 else { return nil }
        if let last, last.address == address { return last.name }
        let name = memory.withCString(at: address) { String(validating: $0, as: UTF8.self) } ?? nil
        last = (address, name)
        return name
    }
}

extension Substring {
    fileprivate func trimmingBlanks() -> String {
        var trimmed = self
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        return String(trimmed)
    }
}

/// One record slot of ``ModuleRecord``, its fields, and where its pointers
/// lead.
///
/// `Memory` is constrained on the extension, not on the type: a generic
/// type with a requirement costs its first use in a process a search of
/// every image's protocol conformance records by the Swift runtime (about
/// 0.2 M instructions at start-up, as scripts/toolbox-test.sh counts them).
private struct RecordSlot<Memory> {
    let record: app_module_record
    let start: UnsafeRawPointer
    /// The section's bytes after this slot: where text slots are.
    let following: UnsafeRawBufferPointer
    let byteOffset: Int
    let memory: Memory

    init(_ section: UnsafeRawBufferPointer, byteOffset: Int, memory: Memory) {
        record = section.loadUnaligned(fromByteOffset: byteOffset, as: app_module_record.self)
        start = section.baseAddress! + byteOffset
        following = UnsafeRawBufferPointer(rebasing: section[(byteOffset + ModuleRecord.size)...])
        self.byteOffset = byteOffset
        self.memory = memory
    }

    /// Whether the size counts text slots after the record: a record
    /// written from Swift, whose texts cannot be pointers.
    var hasTextSlots: Bool { Int(record.size) > ModuleRecord.size }

    /// The text slots the size counts that lie in the section.
    private var textSlots: Int { min(Int(record.size) / ModuleRecord.size - 1, following.count / ModuleRecord.size) }

    /// The bytes before the NUL of the text slot that holds `field`, or
    /// `nil` if no slot of the record holds it, with a NUL.
    func inlineText(_ field: ModuleRecord.TextField) -> UnsafeRawBufferPointer? {
        for index in 0..<max(textSlots, 0) {
            let slot = following.baseAddress! + index * ModuleRecord.size
            let header = slot.loadUnaligned(as: (UInt32, UInt8).self)
            guard header.0 == APP_MODULE_KIND_TEXT, header.1 == field.rawValue else { continue }
            let text = slot + MemoryLayout<app_module_text_slot>.offset(of: \.text)!
            guard let end = memchr(text, 0, ModuleRecord.textCapacity) else { return nil }
            return UnsafeRawBufferPointer(start: text, count: UnsafeRawPointer(end) - text)
        }
        return nil
    }

    /// Checks what the size says: one slot, or text slots that follow in
    /// the section, each a known field once with a terminated text. Returns
    /// whether the record's texts can be read where it says they are.
    func checkSize(into defects: inout some DefectSink) -> Bool {
        let size = Int(record.size)
        guard size >= ModuleRecord.size, size <= ModuleRecord.maximumSize, size.isMultiple(of: ModuleRecord.size) else {
            defects.add(.wrongSize(record.size))
            return false
        }
        guard hasTextSlots else { return true }
        guard size - ModuleRecord.size <= following.count else {
            defects.add(.textSlotsPastSectionEnd(record.size))
            return false
        }
        var readable = true
        var seen: UInt8 = 0  // a bit per field
        for index in 0..<textSlots {
            let slot = following.loadUnaligned(fromByteOffset: index * ModuleRecord.size, as: app_module_text_slot.self)
            guard slot.kind == APP_MODULE_KIND_TEXT else {
                defects.add(.notATextSlot(index + 1))
                readable = false
                continue
            }
            guard let field = ModuleRecord.TextField(rawValue: slot.field) else {
                defects.add(.unknownTextField(slot.field))
                readable = false
                continue
            }
            if seen & (1 << field.rawValue) != 0 {
                defects.add(.duplicateTextField(slot.field))
                readable = false
            }
            seen |= 1 << field.rawValue
            if slot.reserved != (0, 0, 0) { defects.add(.nonzeroReserved) }
            let hasNUL = withUnsafeBytes(of: slot.text) { $0.contains(0) }
            if !hasNUL {
                defects.add(.unterminatedText(slot.field))
                readable = false
            }
        }
        return readable
    }
}

extension RecordSlot where Memory: RecordMemory {
    /// The value the program sees in a pointer field.
    func pointer<Field>(_ field: KeyPath<app_module_record, Field>, _ value: Field) -> UInt64 {
        let stored = withUnsafeBytes(of: value) { $0.loadUnaligned(as: UInt64.self) }
        return memory.pointer(atSectionOffset: byteOffset + MemoryLayout<app_module_record>.offset(of: field)!, stored: stored)
    }

    var factory: UInt64 { pointer(\.factory, record.factory) }

    /// Where text `field` is: inline in a text slot, behind a pointer (the
    /// address the program sees), or nowhere.
    private enum TextPlace {
        case absent
        case inline(UnsafeRawBufferPointer)
        case pointer(UInt64)
    }

    private func place(of field: ModuleRecord.TextField) -> TextPlace {
        if hasTextSlots { return inlineText(field).map(TextPlace.inline) ?? .absent }
        let address = field == .after ? pointer(\.after, record.after) : pointer(\.source_file, record.source_file)
        return address == 0 ? .absent : .pointer(address)
    }

    func hasText(_ field: ModuleRecord.TextField) -> Bool {
        if case .absent = place(of: field) { return false }
        return true
    }

    /// Calls `body` with the bytes of text `field` before its NUL; `nil`
    /// without the text, or if it cannot be read.
    func withText<Result>(_ field: ModuleRecord.TextField, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        withText(at: place(of: field), body)
    }

    private func withText<Result>(at place: TextPlace, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        switch place {
        case .absent: nil
        case .inline(let text): body(text)
        case .pointer(let address): memory.withCString(at: address, body)
        }
    }

    /// Whether text `field` is there but cannot be read; `check` is called
    /// with its bytes when it can. The text's place is found once.
    private func isUnreadable(_ field: ModuleRecord.TextField, check: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let place = place(of: field)
        if case .absent = place { return false }
        return withText(at: place, check) == nil
    }

    /// The source file's name, read once per distinct address.
    func sourceFile(_ names: inout SourceFileNames) -> String? {
        switch place(of: .sourceFile) {
        case .absent: nil
        case .inline(let text): String(validating: text, as: UTF8.self)
        case .pointer(let address): names.name(at: address, memory: memory)
        }
    }
    var name: String { String(decoding: ModuleRecord.nameBytes(at: start)!, as: UTF8.self) }
    var level: ModuleLevel? { ModuleLevel(rawValue: record.level) }

    /// Every check, in the order defects are listed; returns the name's
    /// length if the name passed its own.
    func check(into defects: inout some DefectSink) -> Int? {
        if record.version != APP_MODULE_ABI_VERSION { defects.add(.unsupportedVersion(record.version)) }
        let textsReadable = checkSize(into: &defects)
        let unknownFlags = record.flags & ~APP_MODULE_KNOWN_FLAGS
        if unknownFlags != 0 { defects.add(.unknownFlags(unknownFlags)) }
        if level == nil { defects.add(.unknownLevel(record.level)) }
        if hasTextSlots {
            if record.reserved0 != 0 || record.reserved1.1 != 0 || record.reserved1.2 != 0 { defects.add(.nonzeroReserved) }
            // Read as the program sees it: in a shared object's file the
            // anchor reference is a relocation.
            if pointer(\.reserved1, record.reserved1) == 0 { defects.add(.missingAnchorReference) }
            if pointer(\.after, record.after) != 0 || pointer(\.source_file, record.source_file) != 0 {
                defects.add(.pointerBesideTextSlots)
            }
        } else if record.reserved0 != 0 || record.reserved1 != (0, 0, 0) {
            defects.add(.nonzeroReserved)
        }
        if factory == 0 { defects.add(.missingFactory) }
        let nameLength = ModuleRecord.checkName(at: start, into: &defects)
        guard textsReadable || !hasTextSlots else { return nameLength }
        if isUnreadable(.after, check: { ModuleRecord.checkDependencies($0, into: &defects) }) {
            defects.add(.unreadableDependencies)
        }
        if isUnreadable(.sourceFile, check: { _ in }) {
            defects.add(.unreadableSourceFile)
        }
        return nameLength
    }

    /// The declaration of a record that passed every check.
    func declaration(name: String, location: RecordLocation) -> ModuleDeclaration {
        ModuleDeclaration(
            name: name,
            level: level!,
            priority: Int(record.priority),
            after: withText(.after, ModuleRecord.dependencies) ?? [],
            startsConcurrently: record.flags & APP_MODULE_CONCURRENT_START != 0,
            required: record.flags & APP_MODULE_REQUIRED != 0,
            location: location
        )
    }
}
