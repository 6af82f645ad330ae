// libFuzzer harness for the record decoder: any bytes, read as the contents
// of an app_modules section whose pointers lead back into the same bytes,
// then the registry and ordering rules; and the same bytes read as a loaded
// image (a segment map, a note's bounds and the segments' contents) the way
// discovery reads one. scripts/fuzz.sh builds it with
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

/// A loaded image made of the input: byte 0 says how many segments (1 to
/// 4), bytes 1 to 12 are the note's three offsets (`Int32`, from the first
/// segment's start, as `.long X - .` resolves), and the rest is split evenly
/// into the segments. Each segment is a separate allocation, so that
/// AddressSanitizer stops any read that leaves one: what discovery must
/// never do, whatever the note and the records say.
struct SyntheticImage {
    static let headerSize = 13
    let segments: [UnsafeMutableRawBufferPointer]
    let start: UInt, stop: UInt, anchor: UInt

    init?(_ input: UnsafeRawBufferPointer) {
        guard input.count > Self.headerSize else { return nil }
        let count = Int(input[0] % 4) + 1
        let contents = UnsafeRawBufferPointer(rebasing: input[Self.headerSize...])
        segments = (0..<count).map { index in
            let part = contents[contents.count * index / count ..< contents.count * (index + 1) / count]
            let segment = UnsafeMutableRawBufferPointer.allocate(byteCount: part.count, alignment: 16)
            segment.copyMemory(from: UnsafeRawBufferPointer(rebasing: part))
            return segment
        }
        let base = UInt(bitPattern: segments[0].baseAddress)
        let offset = { (index: Int) in UInt(bitPattern: Int(input.loadUnaligned(fromByteOffset: 1 + 4 * index, as: Int32.self))) }
        (start, stop, anchor) = (base &+ offset(0), base &+ offset(1), base &+ offset(2))
    }

    var map: ImageSegments {
        ImageSegments(segments.filter { $0.count > 0 }.map { UInt(bitPattern: $0.baseAddress)..<UInt(bitPattern: $0.baseAddress) + UInt($0.count) })
    }

    func deallocate() {
        segments.forEach { $0.deallocate() }
    }
}

/// A record pointer `v` of the synthetic image leads `v & 0xFFFFFFFF` bytes
/// past the start of segment `v >> 32` (modulo the count): into a segment,
/// past its end, or into another; the reader must check which.
struct SegmentMemory: RecordMemory {
    let image: SyntheticImage
    let memory: ImageMemory

    func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        guard stored != 0 else { return 0 }
        let segment = image.segments[Int(stored >> 32) % image.segments.count]
        return UInt64(UInt(bitPattern: segment.baseAddress) &+ UInt(stored & 0xFFFF_FFFF))
    }

    func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        memory.withCString(at: address, body)
    }
}

/// Reads the synthetic image as discovery reads a loaded one: the bounds
/// are checked first, and only a section that passes is read.
func readAsImage(_ input: UnsafeRawBufferPointer) {
    guard let image = SyntheticImage(input) else { return }
    defer { image.deallocate() }
    let segments = image.map
    if let problem = segments.boundsProblem(start: image.start, stop: image.stop, anchor: image.anchor, image: "fuzz") {
        _ = problem.description
        return
    }
    let section = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: image.start), count: Int(image.stop - image.start))
    let memory = SegmentMemory(image: image, memory: ImageMemory(segments))
    let scan = SectionScan(section, memory: memory, image: "fuzz")
    _ = scan.problems.map(\.description)
    for slot in 0..<section.count / ModuleRecord.size {
        _ = ModuleRecord.check(section, byteOffset: slot * ModuleRecord.size, memory: memory)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    readAsImage(bytes)
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
