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
