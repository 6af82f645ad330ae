import CSectionRegistry

/// One module of a registry: what it declares, and how to make it.
public struct ModuleDescriptor: Sendable, CustomStringConvertible {
    /// What its record (or Swift) declares.
    public let declaration: ModuleDeclaration

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
        self.init(
            ModuleDeclaration(name: name, level: level, priority: priority, after: dependencies,
                              startsConcurrently: startsConcurrently),
            factory: .swift(make)
        )
    }

    init(_ declaration: ModuleDeclaration, factory: Factory) {
        self.declaration = declaration
        self.factory = factory
    }

    /// The name in `APP_MODULE(NAME)`, unique in the registry.
    public var name: String { declaration.name }
    /// The launch tier (`.level = APP_MODULE_LEVEL_...`).
    public var level: ModuleLevel { declaration.level }
    /// The order within a level: higher comes first (`.priority = N`).
    public var priority: Int { declaration.priority }
    /// The modules this one comes after (`.after = "A,B"`), as written.
    public var dependencies: [String] { declaration.dependencies }
    /// Whether it may start alongside the modules of its level it has no
    /// dependency with (`.flags = APP_MODULE_CONCURRENT_START`).
    public var startsConcurrently: Bool { declaration.startsConcurrently }
    /// Where its record is and which file declared it; `nil` for a module
    /// declared in Swift.
    public var location: RecordLocation? { declaration.location }
    /// The file of the image (program or shared object) its record is in;
    /// `nil` for a module declared in Swift.
    public var image: String? { declaration.location?.image }

    /// Creates a new instance of the module with its factory.
    ///
    /// Every call makes a new instance; keeping one is the caller's choice.
    ///
    /// - Throws: ``FactoryError`` when a record's factory is not a function
    ///   that returns an ``AppModuleHandle`` of this SectionRegistry.
    public func makeModule() throws(FactoryError) -> any AppModule {
        switch factory {
        case .record(let factory): try AppModuleHandle.make(with: factory, module: name)
        case .swift(let make): make()
        }
    }

    public var description: String { declaration.description }
}
