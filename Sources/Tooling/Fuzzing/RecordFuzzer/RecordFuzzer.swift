// libFuzzer harness for the record decoder: any bytes, read as the contents
// of an app_modules section whose pointers lead back into the same bytes,
// then the registry and ordering rules. scripts/fuzz.sh builds it with
// `--sanitize fuzzer -Xswiftc -DFUZZING`; libFuzzer then provides `main`.
import ModuleRecords

#if FUZZING
/// Pointers are offsets into the input, plus one (0 stays null).
struct InputMemory: RecordMemory {
    let bytes: UnsafeRawBufferPointer

    func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        stored
    }

    func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard address > 0, address <= UInt64(bytes.count) else { return nil }
        let tail = bytes[Int(address - 1)...]
        guard let end = tail.firstIndex(of: 0) else { return nil }
        return body(UnsafeRawBufferPointer(rebasing: tail[..<end]))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let memory = InputMemory(bytes: bytes)
    let scan = SectionScan(bytes, memory: memory)
    // The in-place check discovery runs must pass exactly what the decoder does.
    let passed = (0..<bytes.count / ModuleRecord.size).filter {
        if case .valid = ModuleRecord.check(bytes, byteOffset: $0 * ModuleRecord.size, memory: memory) { return true }
        return false
    }
    precondition(passed == scan.modules.compactMap { $0.declaration.location?.index }, "the in-place check and the decoder disagree")
    let checked = RegistryRules.check(scan.modules.map(\.declaration), problems: scan.problems)
    _ = checked.problems.map(\.description)
    let declarations = checked.declaredOrder.map { scan.modules[$0].declaration }
    if let order = try? StartOrder.resolve(declarations, disabled: []) {
        precondition(order.count == declarations.count, "every module is ordered once")
        precondition(Set(order).count == order.count, "no module is ordered twice")
    }
    return 0
}
#else
@main
enum RecordFuzzer {
    static func main() {
        print("RecordFuzzer is a libFuzzer harness: build and run it with scripts/fuzz.sh")
    }
}
#endif
