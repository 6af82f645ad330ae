import CSectionRegistry
import Synchronization

/// The `app_modules` section of the image that holds this library.
enum LinkedSection {
    /// How many times discovery has read the section in this process: once,
    /// however many threads ask first.
    static let readCount = Atomic<Int>(0)

    /// The section's bytes, between the linker's `__start_app_modules` and
    /// `__stop_app_modules`, after checking that those bounds enclose the
    /// anchor record the C target puts in the section.
    static func bytes() throws(DiscoveryError) -> UnsafeRawBufferPointer {
        readCount.add(1, ordering: .relaxed)
        let section = app_modules_section_in_this_image()
        guard section.start <= section.anchor, section.anchor < section.stop else {
            throw DiscoveryError(problems: [.anchorOutsideSection])
        }
        let byteCount = UnsafeRawPointer(section.stop) - UnsafeRawPointer(section.start)
        return UnsafeRawBufferPointer(start: section.start, count: byteCount)
    }
}
