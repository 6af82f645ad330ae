import CSectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// A shared object opened with `dlopen`, and the images it brought in that
/// register modules: itself and those of its dependencies that were not
/// loaded yet.
///
/// They are found the way ``ModuleRegistry/linked()`` finds the program's:
/// through each image's note, so a plugin's records are read through its own
/// section bounds, never the program's.
struct PluginLibrary: @unchecked Sendable {
    // @unchecked: a dlopen handle is a process-wide token that the dynamic
    // linker serialises itself; only the owning host actor uses it.
    let path: String
    let handle: UnsafeMutableRawPointer
    /// The images the library brought in, each with its section claimed.
    let images: [LoadedImage]

    /// Opens the library at `path`, once ``trustedPath(_:checkingWriters:)``
    /// accepts the file, and claims the sections of the images it brought in.
    /// `path` stays the library's name for ``ModuleHost/unload(plugin:)``.
    ///
    /// `RTLD_NODELETE`: the Swift runtime keeps pointers into the metadata of
    /// every image it has seen and cannot forget one, so a library that ran
    /// Swift code must never be unmapped; closing it only drops the handle.
    static func open(_ path: String, checkingWriters: Bool) throws(HostError) -> PluginLibrary {
        let file = try trustedPath(path, checkingWriters: checkingWriters)
        let before = Set(LoadedImage.all().map(\.sectionIdentity))
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw .cannotOpen(plugin: path, reason: lastDynamicLinkerError())
        }
        // The library itself counts even if it was mapped already (with
        // LD_PRELOAD, or by another dlopen) but not registered.
        let bias = app_modules_load_bias_of(handle)
        let brought = LoadedImage.all().filter { !before.contains($0.sectionIdentity) || (bias != 0 && $0.loadBias == bias) }
        let claimed = brought.filter(RegisteredSections.claim)
        guard !claimed.isEmpty else {
            dlclose(handle)
            throw brought.isEmpty ? .noSection(plugin: path) : .alreadyLoaded(plugin: path)
        }
        return PluginLibrary(path: path, handle: handle, images: claimed)
    }

    /// The modules the images declare, checked like the program's.
    func registry() throws(HostError) -> ModuleRegistry {
        do {
            return try ModuleRegistry(images: images, copyMarker: ModuleRegistry.copyMarker)
        } catch {
            throw .invalidRegistry(plugin: path, error)
        }
    }

    /// Releases the sections and drops the handle; the library stays mapped
    /// (see ``open(_:checkingWriters:)``).
    func close() {
        images.forEach(RegisteredSections.release)
        dlclose(handle)
    }
}

private func lastDynamicLinkerError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown error"
}
