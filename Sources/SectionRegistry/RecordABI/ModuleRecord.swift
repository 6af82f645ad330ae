import CSectionRegistry

/// Reads one `app_module_record` (record ABI version 2, see
/// `CSectionRegistry/include/RecordABI.md`) and checks every field: the one
/// decoder of the runtime and the inspector.
package enum ModuleRecord {
    static let size = Int(APP_MODULE_RECORD_SIZE)
    static let nameCapacity = Int(APP_MODULE_NAME_CAPACITY)

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

    /// Decodes the record that starts `byteOffset` bytes into `section`,
    /// which holds at least ``size`` bytes from there, following its
    /// pointers through `memory`.
    static func decode(
        _ section: UnsafeRawBufferPointer, index: Int, byteOffset: Int,
        memory: some RecordMemory, image: String?, sourceFiles: inout SourceFileNames
    ) -> Contents {
        let record = section.loadUnaligned(fromByteOffset: byteOffset, as: app_module_record.self)
        guard record.kind == APP_MODULE_KIND_MODULE else { return .skipped }

        func pointer<Field>(_ field: KeyPath<app_module_record, Field>, _ value: Field) -> UInt64 {
            let stored = withUnsafeBytes(of: value) { $0.loadUnaligned(as: UInt64.self) }
            return memory.pointer(atSectionOffset: byteOffset + MemoryLayout<app_module_record>.offset(of: field)!, stored: stored)
        }

        var defects: [RecordDefect] = []
        if record.version != APP_MODULE_ABI_VERSION { defects.append(.unsupportedVersion(record.version)) }
        if record.size != size { defects.append(.wrongSize(record.size)) }
        let unknownFlags = record.flags & ~APP_MODULE_KNOWN_FLAGS
        if unknownFlags != 0 { defects.append(.unknownFlags(unknownFlags)) }
        let level = ModuleLevel(rawValue: record.level)
        if level == nil { defects.append(.unknownLevel(record.level)) }
        if record.reserved0 != 0 || record.reserved1 != (0, 0, 0) { defects.append(.nonzeroReserved) }
        let factory = pointer(\.factory, record.factory)
        if factory == 0 { defects.append(.missingFactory) }

        let name = decodeName(record, into: &defects)
        let dependencies = decodeDependencies(at: pointer(\.after, record.after), memory: memory, into: &defects)
        let sourceFile = sourceFiles.name(at: pointer(\.source_file, record.source_file), memory: memory)
        let location = RecordLocation(index: index, byteOffset: byteOffset, sourceFile: sourceFile, image: image)

        guard defects.isEmpty, let name, let level else {
            return .defective(location, name: name, defects)
        }
        let declaration = ModuleDeclaration(
            name: name,
            level: level,
            priority: Int(record.priority),
            after: dependencies,
            startsConcurrently: record.flags & APP_MODULE_CONCURRENT_START != 0,
            location: location
        )
        return .module(declaration, factory: factory)
    }

    /// The inline name: NUL-terminated within its field, non-empty, UTF-8,
    /// and usable in an `.after` list.
    private static func decodeName(_ record: app_module_record, into defects: inout [RecordDefect]) -> String? {
        withUnsafeBytes(of: record.name) { field in
            guard let end = field.firstIndex(of: 0) else {
                defects.append(.unterminatedName)
                return nil
            }
            guard end > 0 else {
                defects.append(.emptyName)
                return nil
            }
            let bytes = UnsafeRawBufferPointer(rebasing: field[..<end])
            return decodeText(bytes, onInvalidUTF8: .nameNotUTF8, into: &defects)
        }
    }

    /// `bytes` as a name, if UTF-8; a name holding a separator is reported.
    /// Names are C identifiers in practice: ASCII bytes are checked
    /// directly, and Unicode properties looked up only for other names.
    private static func decodeText(
        _ bytes: UnsafeRawBufferPointer, onInvalidUTF8 defect: RecordDefect, into defects: inout [RecordDefect]
    ) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            let name = String(decoding: bytes, as: UTF8.self)
            if bytes.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ",") || $0 == 0x7F }) {
                defects.append(.invalidNameCharacter(name))
            }
            return name
        }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            defects.append(defect)
            return nil
        }
        if name.unicodeScalars.contains(where: isSeparatorOrControl) {
            defects.append(.invalidNameCharacter(name))
        }
        return name
    }

    /// The `.after` list: module names separated by commas, blanks allowed
    /// around them.
    private static func decodeDependencies(
        at address: UInt64, memory: some RecordMemory, into defects: inout [RecordDefect]
    ) -> [String] {
        guard address != 0 else { return [] }
        guard let bytes = memory.cString(at: address) else {
            defects.append(.unreadableDependencies)
            return []
        }
        guard let list = String(validating: bytes, as: UTF8.self) else {
            defects.append(.dependenciesNotUTF8)
            return []
        }
        let names = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingBlanks() }
        if names.contains(where: \.isEmpty) {
            defects.append(.emptyDependency(list: list))
        }
        return names
    }

    private static func isSeparatorOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "," || scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
}

/// The source file names of a section's records, read once per distinct
/// address: the records of one C file all point at one string.
struct SourceFileNames {
    private var last: (address: UInt64, name: String?)?

    mutating func name(at address: UInt64, memory: some RecordMemory) -> String? {
        guard address != 0 else { return nil }
        if let last, last.address == address { return last.name }
        let name = memory.cString(at: address).flatMap { String(validating: $0, as: UTF8.self) }
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
