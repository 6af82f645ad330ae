import CSectionRegistry
#if canImport(Glibc)
import Glibc
#endif

extension LoadedImage {
    /// The file holding the copy of SectionRegistry this image's modules
    /// were built against, when that is not the copy running this code;
    /// `nil` when it is this copy, or the image reaches none.
    ///
    /// Swift identifies types by address: a module conforming to a second
    /// copy's `AppModule` is not an `AppModule` here, and the host cannot
    /// use it. The copy an image uses is where its references to `marker`,
    /// a symbol every copy defines (the host passes the protocol descriptor
    /// of `AppModule`), bind: its own definition if it has
    /// one (Swift's public symbols are protected, so they bind in their
    /// image), else the first in the global scope, else (for a plugin opened
    /// `RTLD_LOCAL`) the first among its own dependencies.
    package func otherRegistryCopy(marker: String) -> String? {
        guard !holdsThisRegistry, let bound = registryBinding(marker: marker)?.copy else { return nil }
        guard bound.base != Self.image(holding: #dsohandle).base else { return nil }
        return bound.file ?? path
    }

    /// Whether the image holds a copy of SectionRegistry of its own: the
    /// one running this code, or one it defines (a static copy).
    package func holdsARegistryCopy(marker: String) -> Bool {
        holdsThisRegistry || registryBinding(marker: marker)?.isItsOwn == true
    }

    /// The image whose copy of SectionRegistry this image's references to
    /// `marker` bind to, and whether that is this image itself; `nil` if it
    /// reaches none.
    private func registryBinding(marker symbol: String) -> (copy: (base: UnsafeRawPointer?, file: String?), isItsOwn: Bool)? {
        // An image whose note failed is never asked: its bounds may lead
        // anywhere.
        guard problem == nil, let sectionStart = section.baseAddress,
              let handle = isProgram ? dlopen(nil, RTLD_LAZY) : dlopen(path, RTLD_LAZY | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        // dlsym on the handle searches the image, then its dependencies;
        // for the program, the global scope.
        guard let inScope = dlsym(handle, symbol) else { return nil }
        let found = Self.image(holding: inScope)
        let isItsOwn = found.base == Self.image(holding: sectionStart).base
        let global: UnsafeMutableRawPointer? = dlsym(nil, symbol)
        let bound = isProgram || isItsOwn ? found : global.map { Self.image(holding: $0) } ?? found
        return (bound, isItsOwn && bound.base == found.base)
    }

    /// The base address and file of the image that maps `address`.
    package static func image(holding address: UnsafeRawPointer) -> (base: UnsafeRawPointer?, file: String?) {
        var file: UnsafePointer<CChar>?
        let base = app_modules_image_of(address, &file)
        return (base, file.map { String(cString: $0) })
    }
}
