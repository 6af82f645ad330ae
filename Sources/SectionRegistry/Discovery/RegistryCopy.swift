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
    /// use it. The image must reach this very copy, which is the case when
    /// the program and its libraries all link the `SectionRegistryDynamic`
    /// product. The protocol descriptor of `AppModule` is looked up the way
    /// the image's own references bind: in the image, then its dependencies
    /// (for the program, the global scope).
    func otherRegistryCopy() -> String? {
        guard !holdsThisRegistry else { return nil }
        guard let handle = isProgram ? dlopen(nil, RTLD_LAZY) : dlopen(path, RTLD_LAZY | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        guard let theirs = dlsym(handle, "$s15SectionRegistry9AppModuleMp") else { return nil }
        var theirFile: UnsafePointer<CChar>?
        var ourFile: UnsafePointer<CChar>?
        guard app_modules_image_of(theirs, &theirFile) != app_modules_image_of(#dsohandle, &ourFile) else { return nil }
        return theirFile.map { String(cString: $0) } ?? path
    }
}
