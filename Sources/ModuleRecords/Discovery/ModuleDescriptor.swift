import CSectionRegistry

/// One module of a registry: what it declares, and how to make it.
public struct ModuleDescriptor: Sendable, CustomStringConvertible {
    private let source: Source

    /// Where the module is declared. A linked record is read where it lies,
    /// so that discovery allocates nothing per module; a declared module is
    /// one reference, so that copying a descriptor stays cheap.
    package enum Source: Sendable {
        case linked(LinkedRecord)
        case declared(DeclaredModule)
    }

    /// A module declared in Swift, or read from bytes that may not outlive
    /// the registry.
    package final class DeclaredModule: Sendable {
        let declaration: ModuleDeclaration
        let factory: Factory

        package init(_ declaration: ModuleDeclaration, _ factory: Factory) {
            self.declaration = declaration
            self.factory = factory
        }
    }

    /// How instances are made: a record's factory is the bare function
    /// pointer, with no closure to allocate, which the host calls through
    /// the C ABI's handle; a module declared in Swift has its maker, an
    /// object of the layer that knows module types (the host's), opaque
    /// here. The host turns either into a module (`makeModule()`).
    package enum Factory: Sendable {
        case record(app_module_factory)
        case swift(any AnyObject & Sendable)
    }

    /// Declares a module whose instances `maker` makes: what the host's
    /// `init(name:level:priority:after:startsConcurrently:required:make:)` builds on.
    package init(
        name: String,
        level: ModuleLevel,
        priority: Int,
        after dependencies: [String],
        startsConcurrently: Bool,
        required isRequired: Bool,
        maker: any AnyObject & Sendable
    ) {
        self.init(.declared(DeclaredModule(
            ModuleDeclaration(name: name, level: level, priority: priority, after: dependencies,
                              startsConcurrently: startsConcurrently, required: isRequired),
            .swift(maker)
        )))
    }

    package init(_ source: Source) {
        self.source = source
    }

    /// What its record (or Swift) declares.
    package var declaration: ModuleDeclaration {
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

    /// Whether it may come after other modules: for a linked record, whether
    /// it has an `.after` list at all (possibly empty), read without
    /// decoding it.
    package var mayHaveDependencies: Bool {
        switch source {
        case .linked(let record): record.hasDependencies
        case .declared(let module): !module.declaration.dependencies.isEmpty
        }
    }

    /// Whether it may start alongside the modules of its level it has no
    /// dependency with (`.flags = APP_MODULE_CONCURRENT_START`).
    public var startsConcurrently: Bool {
        switch source {
        case .linked(let record): record.startsConcurrently
        case .declared(let module): module.declaration.startsConcurrently
        }
    }
    /// Whether it may not be disabled from outside the program
    /// (`.flags = APP_MODULE_REQUIRED`): a launch that names it among the
    /// modules to disable, in `SECTION_REGISTRY_DISABLE` or the host's
    /// configuration, fails.
    public var isRequired: Bool { declaration.isRequired }

    /// Where its record is and which file declared it; `nil` for a module
    /// declared in Swift.
    package var location: RecordLocation? {
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

    /// How the module's instances are made.
    package var factory: Factory {
        switch source {
        case .linked(let record): .record(record.factory)
        case .declared(let module): module.factory
        }
    }

    public var description: String { declaration.description }
}
