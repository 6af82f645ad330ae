import CSectionRegistry

/// A record's factory did not return a module this SectionRegistry can take:
/// the function named `app_module_NAME` has another type, or was built
/// against another version or copy of SectionRegistry. No module was made.
public struct FactoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with what the factory returned.
    public enum Problem: Sendable, Hashable {
        /// The function does not return an ``AppModuleHandle``: it left the
        /// zeroed memory it should have returned into without a handle.
        case notAHandle
        /// A handle of another record ABI version.
        case otherVersion(Int)
        /// A handle made by another copy of SectionRegistry, whose module
        /// types are not this copy's.
        case otherCopy
    }

    /// The module whose factory it is.
    public let module: String
    /// The file of the image that holds the factory, as the dynamic linker
    /// names it, or `nil` if none does.
    public let image: String?
    /// What was wrong.
    public let problem: Problem

    init(module: String, factory: app_module_factory?, problem: Problem) {
        var file: UnsafePointer<CChar>?
        if let factory {
            _ = app_modules_image_of(unsafeBitCast(factory, to: UnsafeRawPointer.self), &file)
        }
        self.module = module
        self.image = file.map { String(cString: $0) }
        self.problem = problem
    }

    public var description: String {
        let factory = "app_module_\(module)"
        let place = image.map { " (in \($0))" } ?? ""
        switch problem {
        case .notAHandle:
            return "SectionRegistry: `\(factory)`\(place) does not return an `AppModuleHandle`: "
                + "define it as `@c(\(factory)) func make\(module)() -> AppModuleHandle { AppModuleHandle(\(module)()) }`"
        case .otherVersion(let version):
            return "SectionRegistry: `\(factory)`\(place) returned a handle of record ABI version \(version), "
                + "this SectionRegistry implements version \(APP_MODULE_ABI_VERSION): rebuild it against this SectionRegistry"
        case .otherCopy:
            return "SectionRegistry: `\(factory)`\(place) was built against another copy of SectionRegistry: "
                + "link one copy into every image (the SectionRegistryDynamic product for a program and its libraries)"
        }
    }
}
