import CSectionRegistry

/// One module found in the `app_modules` section: what its record declares,
/// and its factory.
public struct ModuleDescriptor: Sendable, CustomStringConvertible {
    /// The name in `APP_MODULE(NAME)`, unique in the registry.
    public let name: String
    /// The launch tier (`.level = APP_MODULE_LEVEL_...`).
    public let level: ModuleLevel
    /// The order within a level: higher comes first (`.priority = N`).
    public let priority: Int
    /// The modules this one comes after (`.after = "A,B"`), as written.
    public let dependencies: [String]
    /// Where the record is, and the file that declared it.
    public let location: RecordLocation

    let factory: app_module_factory

    /// Creates a new instance of the module with its factory.
    ///
    /// Every call makes a new instance; keeping one is the caller's choice.
    public func makeModule() -> any AppModule {
        factory().takeModule()
    }

    public var description: String {
        var text = "\(name) [\(level), priority \(priority)"
        if !dependencies.isEmpty { text += ", after \(dependencies.joined(separator: ", "))" }
        return text + "]"
    }
}
