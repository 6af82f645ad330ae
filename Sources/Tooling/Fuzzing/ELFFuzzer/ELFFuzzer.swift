// libFuzzer harness for the inspector: any bytes, read as an ELF file and
// inspected (ELF parsing, relocations, symbols, the record decoder, the
// registry and ordering rules). scripts/fuzz.sh builds it with
// `--sanitize fuzzer -Xswiftc -DFUZZING`; libFuzzer then provides `main`.
import ELFInspection

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let file = try? ELFFile(bytes: bytes), let inspection = try? ModuleInspection(file) {
        _ = inspection.records.map(\.declaration.description)
        _ = inspection.problems.map(\.description)
        _ = inspection.orderingProblems.map(\.description)
    }
    return 0
}
#else
@main
enum ELFFuzzer {
    static func main() {
        print("ELFFuzzer is a libFuzzer harness: build and run it with scripts/fuzz.sh")
    }
}
#endif
