import CSectionRegistry

/// One module: what its record declares, and how to make it.
public struct ModuleDescriptor: Sendable, CustomStringConvertible {
    /// The name in `APP_MODULE(NAME)`, unique in the registry.
    public let name: String
    /// The launch tier (`.level = APP_MODULE_LEVEL_...`).
    public let level: ModuleLevel
    /// The order within a level: higher comes first (`.priority = N`).
    public let priority: Int
    /// The modules this one comes after (`.after = "A,B"`), as written.
    public let dependencies: [String]
    /// Whether it may start alongside the modules of its level it has no
    /// dependency with (`.flags = APP_MODULE_CONCURRENT_START`).
    public let startsConcurrently: Bool
    /// Where its record is and which file declared it; `nil` for a module
    /// declared in Swift.
    public let location: RecordLocation?

    private let factory: Factory

    /// How instances are made: a record's C factory is kept as the bare
    /// function pointer, with no closure to allocate per module.
    enum Factory: Sendable {
        case record(app_module_factory)
        case swift(@Sendable () -> any AppModule)
    }

    /// Declares a module in Swift, for tests and for hosts that assemble
    /// some modules by hand. Linked modules come from their records; see
    /// ``ModuleRegistry/linked()``.
    public init(
        name: String,
        level: ModuleLevel = .feature,
        priority: Int = 0,
        after dependencies: [String] = [],
        startsConcurrently: Bool = false,
        make: @escaping @Sendable () -> any AppModule
    ) {
        self.init(name: name, level: level, priority: priority, after: dependencies,
                  startsConcurrently: startsConcurrently, location: nil, factory: .swift(make))
    }

    init(
        name: String,
        level: ModuleLevel,
        priority: Int,
        after dependencies: [String],
        startsConcurrently: Bool,
        location: RecordLocation?,
        factory: Factory
    ) {
        self.name = name
        self.level = level
        self.priority = priority
        self.dependencies = dependencies
        self.startsConcurrently = startsConcurrently
        self.location = location
        self.factory = factory
    }

    /// Creates a new instance of the module with its factory.
    ///
    /// Every call makes a new instance; keeping one is the caller's choice.
    public func makeModule() -> any AppModule {
        switch factory {
        case .record(let factory): factory().takeModule()
        case .swift(let make): make()
        }
    }

    public var description: String {
        var text = "\(name) [\(level), priority \(priority)"
        if !dependencies.isEmpty { text += ", after \(dependencies.joined(separator: ", "))" }
        if startsConcurrently { text += ", concurrent start" }
        return text + "]"
    }
}
