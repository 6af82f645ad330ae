
/// The process-wide owner of every image's `app_modules` section: those
/// loaded with the program, claimed by ``ModuleRegistry/linked()``, and
/// each plugin's, claimed while a host has it loaded. A section is claimed
/// once, so no image's modules are registered twice, by two hosts or by a
/// plugin that turns out to be loaded already.
package enum RegisteredSections {
    private static let lock = PthreadMutex()
    // Under `lock`. An array: a process has a few dozen images, and a Set's
    // first use would look up UInt's Hashable conformance, which scans
    // every image's conformance records: most of a first discovery's time.
    nonisolated(unsafe) private static var starts: [UInt] = []

    /// Claims the section of `image`; `false` if it is claimed already.
    package static func claim(_ image: LoadedImage) -> Bool {
        lock.withLock {
            guard !starts.contains(image.sectionIdentity) else { return false }
            starts.append(image.sectionIdentity)
            return true
        }
    }

    package static func release(_ image: LoadedImage) {
        lock.withLock { starts.removeAll { $0 == image.sectionIdentity } }
    }
}
