import CSectionRegistry

/// The `app_modules` section of the image that holds this library.
enum LinkedSection {
    /// The section's bytes, between the linker's `__start_app_modules` and
    /// `__stop_app_modules`, after checking that those bounds enclose the
    /// anchor record the C target puts in the section.
    static func bytes() throws(DiscoveryError) -> UnsafeRawBufferPointer {
        let section = app_modules_section_in_this_image()
        guard section.start <= section.anchor, section.anchor < section.stop else {
            throw DiscoveryError(problems: [.anchorOutsideSection])
        }
        let byteCount = UnsafeRawPointer(section.stop) - UnsafeRawPointer(section.start)
        return UnsafeRawBufferPointer(start: section.start, count: byteCount)
    }
}
