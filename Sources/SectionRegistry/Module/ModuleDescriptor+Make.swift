import CSectionRegistry

extension ModuleDescriptor {
    /// Declares a module in Swift, for tests and for hosts that assemble
    /// some modules by hand. Linked modules come from their records; see
    /// ``ModuleRegistry/linked()``. A module's own tests declare it so, with
    /// its record's level, priority and `after` (<doc:Testing>). `required` is the record's
    /// `APP_MODULE_REQUIRED` (see ``ModuleDescriptor/isRequired``).
    public init(
        name: String,
        level: ModuleLevel = .feature,
        priority: Int = 0,
        after dependencies: [String] = [],
        startsConcurrently: Bool = false,
        required isRequired: Bool = false,
        make: @escaping @Sendable () -> any AppModule
    ) {
        self.init(name: name, level: level, priority: priority, after: dependencies,
                  startsConcurrently: startsConcurrently, required: isRequired, maker: DeclaredModuleMaker(make))
    }

    /// The module `name` as its linked record declares it (its level,
    /// priority, `after`, concurrent start and required flag, from its
    /// `APP_MODULE` line or `@AppModule`), so that a test restates none of
    /// them and follows the record when it changes:
    ///
    /// ```swift
    /// try await withTestHost([.linked("HTTP")]) { test in ... }
    /// try await withTestHost([.linked("HTTP") { HTTP(port: 0) }]) { test in ... }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the module's name, as its record spells it.
    ///   - make: makes the instances instead of the record's factory: a
    ///     module made for the test, declared as the record declares it.
    /// - Throws: ``RegistryError`` (``RegistryError/Code/unknownModule``)
    ///   if no record of that name is linked into the running binary (the
    ///   test target must depend on the module's target), naming the ones
    ///   that are; a ``RegistryError`` of discovery if the records are bad.
    public static func linked(_ name: String, make: (@Sendable () -> any AppModule)? = nil) throws -> ModuleDescriptor {
        let registry = try ModuleRegistry.linked()
        guard let record = registry[name] else {
            throw RegistryError.unknownModule(name, known: registry.modules.map(\.name))
        }
        guard let make else { return record }
        return ModuleDescriptor(name: record.name, level: record.level, priority: record.priority, after: record.dependencies,
                                startsConcurrently: record.startsConcurrently, required: record.isRequired, make: make)
    }

    /// Creates a new instance of the module with its factory.
    ///
    /// Every call makes a new instance; keeping one is the caller's choice.
    ///
    /// - Throws: ``HostError`` with a factory code when a record's factory is not a function
    ///   that returns an ``AppModuleHandle`` of this SectionRegistry.
    public func makeModule() throws(HostError) -> any AppModule {
        switch factory {
        case .record(let factory): try AppModuleHandle.make(with: factory, module: name)
        case .swift(let maker): (maker as! DeclaredModuleMaker).make()
        }
    }
}

/// What makes the instances of a module declared in Swift: its closure,
/// called directly. No handle: a handle carries a module across the C ABI
/// of a record's factory, which a Swift closure does not cross (the trip
/// cost an allocation and its checks, each time a module was made).
private final class DeclaredModuleMaker: Sendable {
    let make: @Sendable () -> any AppModule

    init(_ make: @escaping @Sendable () -> any AppModule) {
        self.make = make
    }
}

extension ModuleRegistry {
    /// Creates a new instance of the module registered under `name`.
    ///
    /// - Throws: ``RegistryError`` (``RegistryError/Code/unknownModule``) naming the module and listing the
    ///   linked ones; ``HostError`` with a factory code when its factory is not one.
    public func makeModule(named name: String) throws -> any AppModule {
        guard let module = self[name] else {
            throw RegistryError.unknownModule(name, known: modules.map(\.name))
        }
        return try module.makeModule()
    }
}
