import CSectionRegistry

/// What a module factory returns: one new module, type-erased for C.
///
/// The only way to make a handle is ``init(_:)`` with an ``AppModule``, so a
/// factory that returns anything else does not compile.
public typealias AppModuleHandle = app_module_handle

extension AppModuleHandle {
    /// Wraps a new module for return from its `@c(app_module_NAME)` factory.
    public init(_ module: some AppModule) {
        self.init(instance: Unmanaged.passRetained(ModuleBox(module)).toOpaque())
    }

    /// Unwraps the module, taking over the reference the factory made.
    /// Call it exactly once per handle.
    func takeModule() -> any AppModule {
        Unmanaged<ModuleBox>.fromOpaque(instance).takeRetainedValue().module
    }
}

/// Carries an existential through C's `void *`.
private final class ModuleBox: Sendable {
    let module: any AppModule

    init(_ module: some AppModule) {
        self.module = module
    }
}
