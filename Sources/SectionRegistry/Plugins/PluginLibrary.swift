import CSectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// A shared object opened with `dlopen`, and the `app_modules` section found
/// through its own bounds.
///
/// Every image that links `CSectionRegistry` has its own, hidden
/// `__start_app_modules`/`__stop_app_modules` and its own copy of the
/// accessor that returns them. `dlsym` on the library's handle looks in the
/// library before its dependencies, so it finds the library's accessor, and
/// with it the library's records, never the program's.
struct PluginLibrary: @unchecked Sendable {
    // @unchecked: a dlopen handle is a process-wide token that the dynamic
    // linker serialises itself; only the owning host actor uses it.
    let path: String
    let handle: UnsafeMutableRawPointer
    let section: UnsafeRawBufferPointer

    /// Opens the library at `path` and finds its section.
    ///
    /// `RTLD_NODELETE`: the Swift runtime keeps pointers into the metadata of
    /// every image it has seen and cannot forget one, so a library that ran
    /// Swift code must never be unmapped; closing it only drops the handle.
    static func open(_ path: String) throws(PluginError) -> PluginLibrary {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw .cannotOpen(path: path, reason: lastDynamicLinkerError())
        }
        do throws(PluginError) {
            try requireSharedRegistry(handle, path: path)
            guard let accessor = dlsym(handle, "app_modules_section_in_this_image") else {
                throw .noSection(path: path)
            }
            let section = unsafeBitCast(accessor, to: (@convention(c) () -> app_modules_section).self)()
            guard section.start <= section.anchor, section.anchor < section.stop else {
                throw .discovery(path: path, DiscoveryError(problems: [.anchorOutsideSection]))
            }
            let bytes = UnsafeRawBufferPointer(
                start: section.start, count: UnsafeRawPointer(section.stop) - UnsafeRawPointer(section.start))
            return PluginLibrary(path: path, handle: handle, section: bytes)
        } catch {
            dlclose(handle)
            throw error
        }
    }

    /// Refuses a library that carries its own copy of SectionRegistry.
    ///
    /// Swift types are identified by address: a module conforming to a
    /// second copy's `AppModule` is not an `AppModule` of this host, and its
    /// services would never match. The library must reach the very copy of
    /// SectionRegistry that runs this code, which is the case when host and
    /// library both link the `SectionRegistryDynamic` product.
    private static func requireSharedRegistry(_ handle: UnsafeMutableRawPointer, path: String) throws(PluginError) {
        // The protocol descriptor of AppModule, $s15SectionRegistry9AppModuleMp.
        guard let theirs = dlsym(handle, "$s15SectionRegistry9AppModuleMp") else { return }
        var theirFile: UnsafePointer<CChar>?
        var ourFile: UnsafePointer<CChar>?
        let theirImage = app_modules_image_of(theirs, &theirFile)
        let ourImage = app_modules_image_of(#dsohandle, &ourFile)
        if theirImage != ourImage {
            throw .ownRegistryCopy(path: path, copyIn: theirFile.map { String(cString: $0) } ?? path)
        }
    }

    /// The modules the section declares, each named by this library in
    /// problems.
    func registry() throws(PluginError) -> ModuleRegistry {
        do {
            return try ModuleRegistry(SectionScan(section))
        } catch {
            throw .discovery(path: path, error)
        }
    }

    /// Drops the handle; the library stays mapped (see ``open(_:)``).
    func close() {
        dlclose(handle)
    }
}

private func lastDynamicLinkerError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown error"
}
