#if canImport(Glibc)
import Glibc
#endif

/// Where the pointers of a record lead: this process's memory at run time,
/// or the bytes of a binary on disk for the inspector.
package protocol RecordMemory {
    /// The value the program sees, at run time, in the pointer field that
    /// is `sectionOffset` bytes into the section and holds `stored` in the
    /// section's bytes (a file applies its relocations here).
    func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64

    /// Calls `body` with the bytes of the NUL-terminated string at
    /// `address`, without the NUL; `nil` if they cannot be read.
    func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result?
}

/// The records of the image this code runs in: pointers are what they say.
struct ProcessMemory: RecordMemory {
    func pointer(atSectionOffset sectionOffset: Int, stored: UInt64) -> UInt64 {
        stored
    }

    func withCString<Result>(at address: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard let string = UnsafePointer<CChar>(bitPattern: UInt(address)) else { return nil }
        return body(UnsafeRawBufferPointer(start: string, count: strlen(string)))
    }
}
