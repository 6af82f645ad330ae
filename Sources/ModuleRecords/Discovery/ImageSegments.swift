#if canImport(Glibc)
import Glibc
#endif

/// The readable loaded segments of one image: the only memory a reader may
/// follow that image's note and record pointers into.
///
/// A corrupt or hostile image can put any value in its note's offsets and
/// its records' `after` and `source_file` fields; reading through one that
/// leads outside the image's mapping would crash the host instead of
/// refusing the image. Checking against the image's own `PT_LOAD` segments
/// also keeps one image's records from pointing into another's memory.
package struct ImageSegments: Sendable, Hashable {
    /// The address ranges, as mapped in the process (or as a test or fuzzer
    /// lays them out): each segment's start, then its end. Flat, not a
    /// `[Range<UInt>]`: the first array of ranges in a process makes the
    /// Swift runtime check `Range`'s requirements, a scan of every image's
    /// conformance records, in discovery's first call.
    private let bounds: [UInt]

    package init(_ ranges: [Range<UInt>]) {
        bounds = ranges.flatMap { [$0.lowerBound, $0.upperBound] }
    }

    /// The segments given as their bounds, flat: each segment's start
    /// (inclusive), then its end (exclusive).
    package init(bounds: [UInt]) {
        precondition(bounds.count % 2 == 0, "segment bounds come in pairs")
        self.bounds = bounds
    }

    /// The end of the segment that holds the byte at `address`, or `nil`.
    package func end(ofSegmentHolding address: UInt) -> UInt? {
        withMemory { $0.end(ofSegmentHolding: address) }
    }

    /// Calls `body` with these segments' memory as a view that does not own
    /// them. Discovery checks every record of a section through it: a view
    /// copies as plain bytes, where an ``ImageMemory`` in each record's
    /// check cost a retain, a release and a destroy through value witnesses.
    package func withMemory<Result>(_ body: (BorrowedImageMemory) -> Result) -> Result {
        bounds.withUnsafeBufferPointer { body(BorrowedImageMemory(bounds: $0)) }
    }

    /// Whether the `count` bytes from `address` lie inside one segment
    /// (which must hold `address` itself, even for no bytes: a section
    /// always holds its anchor).
    package func holds(_ address: UInt, count: UInt) -> Bool {
        guard let end = end(ofSegmentHolding: address) else { return false }
        return count <= end - address
    }

    /// Why the section that the note of the image at `image` bounds cannot
    /// be read, or `nil`: `start` must be no later than `stop`, the whole
    /// range inside one segment, and the anchor between them. Whether the
    /// range is a whole number of records is the section scan's to report,
    /// since the whole slots in it are still safe to read.
    package func boundsProblem(start: UInt, stop: UInt, anchor: UInt, image: String) -> DiscoveryProblem? {
        // The message is made only for a problem: every discovery of every
        // image asks, and formatting it is most of a first discovery's
        // work for the program's image.
        func corrupt(_ what: String) -> DiscoveryProblem {
            let bounds = "its note's bounds (__start_app_modules 0x\(String(start, radix: 16)), __stop_app_modules 0x\(String(stop, radix: 16)))"
            return .malformedNote(image: image, "\(bounds) \(what): the note is corrupt; rebuild the image with CSectionRegistry's app_module.h")
        }
        guard start <= stop else { return corrupt("run backwards") }
        guard holds(start, count: stop - start) else { return corrupt("are not inside one of its readable loaded segments") }
        guard start <= anchor, anchor < stop else { return .anchorOutsideSection(image: image) }
        return nil
    }
}

/// The records of one loaded image, read in place: a pointer is followed
/// only into a readable segment of that image, and a string only up to the
/// end of that segment.
package struct ImageMemory: RecordMemory, Sendable {
    package let segments: ImageSegments

    package init(_ segments: ImageSegments) {
        self.segments = segments
    }

    package func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        stored
    }

    package func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        segments.withMemory { $0.withCString(at: address, body) }
    }
}

/// An ``ImageMemory`` that borrows its segments' bounds: valid only inside
/// ``ImageSegments/withMemory(_:)``.
package struct BorrowedImageMemory: RecordMemory {
    /// Each segment's start, then its end.
    fileprivate let bounds: UnsafeBufferPointer<UInt>

    /// The end of the segment that holds the byte at `address`, or `nil`.
    func end(ofSegmentHolding address: UInt) -> UInt? {
        var index = 0
        while index < bounds.count {
            if bounds[index] <= address && address < bounds[index + 1] { return bounds[index + 1] }
            index += 2
        }
        return nil
    }

    package func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        stored
    }

    package func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard let address = UInt(exactly: address), let segmentEnd = end(ofSegmentHolding: address),
              let string = UnsafeRawPointer(bitPattern: address),
              let end = memchr(string, 0, Int(segmentEnd - address)) else { return nil }
        return body(UnsafeRawBufferPointer(start: string, count: UnsafeRawPointer(end) - string))
    }
}
