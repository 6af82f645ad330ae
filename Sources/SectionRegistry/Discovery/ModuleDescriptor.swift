import CSectionRegistry

/// One module of a registry: what it declares, and how to make it.
public struct ModuleDescriptor: Sendable, CustomStringConvertible {
    private let source: Source

    /// Where the module is declared. A linked record is read where it lies,
    /// so that discovery allocates nothing per module; a declared module is
    /// one reference, so that copying a descriptor stays cheap.
    enum Source: Sendable {
        case linked(LinkedRecord)
        case declared(DeclaredModule)
    }

    /// A module declared in Swift, or read from bytes that may not outlive
    /// the registry.
    final class DeclaredModule: Sendable {
        let declaration: ModuleDeclaration
        let factory: Factory

        init(_ declaration: ModuleDeclaration, _ factory: Factory) {
            self.declaration = declaration
            self.factory = factory
        }
    }

    /// How instances of a declared module are made: a record's C factory is
    /// kept as the bare function pointer, with no closure to allocate.
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
        self.init(.declared(DeclaredModule(
            ModuleDeclaration(name: name, level: level, priority: priority, after: dependencies,
                              startsConcurrently: startsConcurrently),
            .swift(make)
        )))
    }

    init(_ source: Source) {
        self.source = source
    }

    /// What its record (or Swift) declares.
    public var declaration: ModuleDeclaration {
        switch source {
        case .linked(let record): record.declaration
        case .declared(let module): module.declaration
        }
    }

    /// The name in `APP_MODULE(NAME)`, unique in the registry.
    public var name: String {
        switch source {
        case .linked(let record): record.name
        case .declared(let module): module.declaration.name
        }
    }

    /// The launch tier (`.level = APP_MODULE_LEVEL_...`).
    public var level: ModuleLevel {
        switch source {
        case .linked(let record): record.level
        case .declared(let module): module.declaration.level
        }
    }

    /// The order within a level: higher comes first (`.priority = N`).
    public var priority: Int {
        switch source {
        case .linked(let record): record.priority
        case .declared(let module): module.declaration.priority
        }
    }

    /// The modules this one comes after (`.after = "A,B"`), as written.
    public var dependencies: [String] { declaration.dependencies }
    /// Whether it may start alongside the modules of its level it has no
    /// dependency with (`.flags = APP_MODULE_CONCURRENT_START`).
    public var startsConcurrently: Bool { declaration.startsConcurrently }

    /// Where its record is and which file declared it; `nil` for a module
    /// declared in Swift.
    public var location: RecordLocation? {
        switch source {
        case .linked(let record): record.location
        case .declared(let module): module.declaration.location
        }
    }

    /// The file of the image (program or shared object) its record is in;
    /// `nil` for a module declared in Swift.
    public var image: String? {
        switch source {
        case .linked(let record): record.image.path
        case .declared(let module): module.declaration.location?.image
        }
    }

    /// Calls `body` with the UTF-8 bytes of the name: where a record holds
    /// them, without making a `String`.
    package func withNameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch source {
        case .linked(let record): record.withNameBytes(body)
        case .declared(let module): module.declaration.withNameBytes(body)
        }
    }

    /// Creates a new instance of the module with its factory.
    ///
    /// Every call makes a new instance; keeping one is the caller's choice.
    ///
    /// - Throws: ``FactoryError`` when a record's factory is not a function
    ///   that returns an ``AppModuleHandle`` of this SectionRegistry.
    public func makeModule() throws(FactoryError) -> any AppModule {
        switch source {
        case .linked(let record): try AppModuleHandle.make(with: record.factory, module: name)
        case .declared(let module):
            switch module.factory {
            case .record(let factory): try AppModuleHandle.make(with: factory, module: name)
            case .swift(let make): make()
            }
        }
    }

    public var description: String { declaration.description }
}
