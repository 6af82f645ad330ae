
/// The process-wide owner of every image's `app_modules` section: the
/// program's, claimed by ``ModuleRegistry/linked()``, and each plugin's,
/// claimed while a host has it loaded. A section is claimed once, so no
/// image's modules are registered twice, by two hosts or by a plugin that
/// turns out to be the program.
enum RegisteredSections {
    private static let starts = Locked<Set<UInt>>([])

    /// Claims `section`; `false` if it is claimed already.
    static func claim(_ section: UnsafeRawBufferPointer) -> Bool {
        let start = UInt(bitPattern: section.baseAddress)
        return starts.withLock { $0.insert(start).inserted }
    }

    static func release(_ section: UnsafeRawBufferPointer) {
        let start = UInt(bitPattern: section.baseAddress)
        _ = starts.withLock { $0.remove(start) }
    }
}
