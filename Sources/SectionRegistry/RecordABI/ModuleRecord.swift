import CSectionRegistry

/// Reads one `app_module_record` (record ABI version 1, see
/// `CSectionRegistry/include/RecordABI.md`) and checks every field.
enum ModuleRecord {
    static let size = Int(APP_MODULE_RECORD_SIZE)
    static let nameCapacity = Int(APP_MODULE_NAME_CAPACITY)

    /// What one record slot holds.
    enum Contents {
        /// A reserved (0) or unknown kind: padding, the anchor, or a record of
        /// another kind. Readers skip it.
        case skipped
        case module(ModuleDescriptor)
        /// A module record that fails one or more checks; `name` is its name
        /// when that much could be read.
        case defective(RecordLocation, name: String?, [RecordDefect])
    }

    /// Decodes the record that starts `byteOffset` bytes into
    /// `section`, which holds at least ``size`` bytes from there.
    ///
    /// The record's pointers (factory, `.after`, source file) are used as they
    /// are, so `section` must be mapped memory of this process.
    static func decode(
        _ section: UnsafeRawBufferPointer, index: Int, byteOffset: Int, sourceFiles: inout SourceFileNames
    ) -> Contents {
        let record = section.loadUnaligned(fromByteOffset: byteOffset, as: app_module_record.self)
        guard record.kind == APP_MODULE_KIND_MODULE else { return .skipped }

        var defects: [RecordDefect] = []
        if record.version != APP_MODULE_ABI_VERSION { defects.append(.unsupportedVersion(record.version)) }
        if record.size != size { defects.append(.wrongSize(record.size)) }
        let unknownFlags = record.flags & ~APP_MODULE_KNOWN_FLAGS
        if unknownFlags != 0 { defects.append(.unknownFlags(unknownFlags)) }
        let level = ModuleLevel(rawValue: record.level)
        if level == nil { defects.append(.unknownLevel(record.level)) }
        if record.reserved0 != 0 || record.reserved1 != (0, 0, 0) { defects.append(.nonzeroReserved) }
        if record.factory == nil { defects.append(.missingFactory) }

        let name = decodeName(record, into: &defects)
        let dependencies = decodeDependencies(record.after, into: &defects)
        let sourceFile = sourceFiles.name(at: record.source_file)
        let location = RecordLocation(index: index, byteOffset: byteOffset, sourceFile: sourceFile)

        guard defects.isEmpty, let name, let level, let factory = record.factory else {
            return .defective(location, name: name, defects)
        }
        return .module(ModuleDescriptor(
            name: name,
            level: level,
            priority: Int(record.priority),
            after: dependencies,
            startsConcurrently: record.flags & APP_MODULE_CONCURRENT_START != 0,
            location: location,
            factory: .record(factory)
        ))
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
            let bytes = field[..<end]
            // Names are C identifiers in practice: check ASCII bytes directly
            // and look Unicode properties up only for other names.
            if bytes.allSatisfy({ $0 < 0x80 }) {
                let name = String(decoding: bytes, as: UTF8.self)
                if bytes.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ",") || $0 == 0x7F }) {
                    defects.append(.invalidNameCharacter(name))
                }
                return name
            }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                defects.append(.nameNotUTF8)
                return nil
            }
            if name.unicodeScalars.contains(where: isSeparatorOrControl) {
                defects.append(.invalidNameCharacter(name))
            }
            return name
        }
    }

    /// The `.after` list: module names separated by commas, blanks allowed
    /// around them.
    private static func decodeDependencies(_ after: UnsafePointer<CChar>?, into defects: inout [RecordDefect]) -> [String] {
        guard let after else { return [] }
        guard let list = String(validatingCString: after) else {
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
/// pointer: the records of one C file all point at one string.
struct SourceFileNames {
    private var last: (pointer: UnsafePointer<CChar>, name: String?)?

    mutating func name(at pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        if let last, last.pointer == pointer { return last.name }
        let name = String(validatingCString: pointer)
        last = (pointer, name)
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
