
/// The process-wide owner of every image's `app_modules` section: those
/// loaded with the program, claimed by ``ModuleRegistry/linked()``, and
/// each plugin's, claimed while a host has it loaded. A section is claimed
/// once, so no image's modules are registered twice, by two hosts or by a
/// plugin that turns out to be loaded already.
enum RegisteredSections {
    private static let starts = Locked<Set<UInt>>([])

    /// Claims the section of `image`; `false` if it is claimed already.
    static func claim(_ image: LoadedImage) -> Bool {
        starts.withLock { $0.insert(image.sectionIdentity).inserted }
    }

    static func release(_ image: LoadedImage) {
        _ = starts.withLock { $0.remove(image.sectionIdentity) }
    }
}
