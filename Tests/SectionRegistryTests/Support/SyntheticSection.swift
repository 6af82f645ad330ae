import CSectionRegistry
@testable import ModuleRecords
@testable import SectionRegistry

/// The module every synthetic record's factory makes.
struct SyntheticModule: AppModule {}

/// A valid version-2 module record, as APP_MODULE writes it, made in Swift
/// so that tests can break it one field at a time.
func moduleRecord(
    _ name: String,
    level: ModuleLevel = .feature,
    priority: Int16 = 0,
    after: StaticString? = nil
) -> app_module_record {
    var record = app_module_record()
    record.kind = APP_MODULE_KIND_MODULE
    record.version = UInt16(APP_MODULE_ABI_VERSION)
    record.size = UInt16(APP_MODULE_RECORD_SIZE)
    record.level = level.rawValue
    record.priority = priority
    record.factory = { AppModuleHandle(SyntheticModule()) }
    record.after = after.map { UnsafeRawPointer($0.utf8Start).assumingMemoryBound(to: CChar.self) }
    record.source_file = UnsafeRawPointer(("synthetic.c" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    setName(of: &record, to: Array(name.utf8) + [0])
    return record
}

/// Overwrites the name field with `bytes`, which need not be UTF-8 or
/// terminated; the rest of the field is zeroed.
func setName(of record: inout app_module_record, to bytes: [UInt8]) {
    withUnsafeMutableBytes(of: &record.name) { field in
        field.initializeMemory(as: UInt8.self, repeating: 0)
        field.copyBytes(from: bytes.prefix(field.count))
    }
}

/// The reserved all-zero record the C target uses as its anchor.
var anchorRecord: app_module_record { app_module_record() }

/// The bytes of a section holding `records` in this order, then `tail`.
func sectionBytes(_ records: [app_module_record], tail: [UInt8] = []) -> [UInt8] {
    records.withUnsafeBytes { Array($0) } + tail
}

/// Scans a synthetic section and builds a registry from it.
func registry(of records: [app_module_record], tail: [UInt8] = []) throws(RegistryError) -> ModuleRegistry {
    let bytes = sectionBytes(records, tail: tail)
    let scan = bytes.withUnsafeBytes { SectionScan($0) }
    return try ModuleRegistry(scan)
}

/// The problems discovery reports for a synthetic section; [] when it succeeds.
func discoveryProblems(_ records: [app_module_record], tail: [UInt8] = []) -> [DiscoveryProblem] {
    do {
        _ = try registry(of: records, tail: tail)
        return []
    } catch {
        return error.discoveryProblems
    }
}

/// A record as `@AppModule` writes it from Swift: the record, then a text
/// slot for `after` (if any) and one for the source file, each slot typed
/// as a record so that it fits a synthetic section.
func swiftRecord(_ name: String, after: String? = nil, sourceFile: String? = "Billing/Billing.swift") -> [app_module_record] {
    var record = moduleRecord(name)
    record.source_file = nil
    // The anchor reference: any non-zero address.
    record.reserved1.0 = 0x1000
    let texts = [after.map { textSlot(field: APP_MODULE_TEXT_AFTER, $0) }, sourceFile.map { textSlot(field: APP_MODULE_TEXT_SOURCE_FILE, $0) }]
        .compactMap { $0 }
    record.size = UInt16(APP_MODULE_RECORD_SIZE) * UInt16(1 + texts.count)
    return [record] + texts
}

/// A text slot holding `text` (cut to its field, which it may fill with no
/// NUL), as a record-sized value.
func textSlot(field: Int32, _ text: String) -> app_module_record {
    var slot = app_module_text_slot()
    slot.kind = APP_MODULE_KIND_TEXT
    slot.field = UInt8(field)
    withUnsafeMutableBytes(of: &slot.text) { $0.copyBytes(from: Array(text.utf8).prefix($0.count)) }
    return unsafeBitCast(slot, to: app_module_record.self)
}

/// `slot` as the text slot it holds.
func asText(_ slot: app_module_record) -> app_module_text_slot {
    unsafeBitCast(slot, to: app_module_text_slot.self)
}

func asSlot(_ text: app_module_text_slot) -> app_module_record {
    unsafeBitCast(text, to: app_module_record.self)
}
