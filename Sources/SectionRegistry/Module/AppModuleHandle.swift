import CSectionRegistry

/// What a module factory returns: one new module, type-erased for C, with
/// the proof that this copy of SectionRegistry made it.
///
/// The only way to make a handle is
/// ``CSectionRegistry/app_module_handle/init(_:)`` with an ``AppModule``. The
/// C declaration that `APP_MODULE` writes cannot check the Swift function it
/// names, so a factory of another type links; calling it then yields a
/// ``HostError`` with a factory code (``HostError/Code/factoryNotAHandle``), never a crash (RecordABI.md, "The factory").
public typealias AppModuleHandle = app_module_handle

extension AppModuleHandle {
    /// Wraps a new module for return from its `@c(app_module_NAME)` factory.
    public init(_ module: some AppModule) {
        self.init(
            magic: APP_MODULE_HANDLE_MAGIC,
            version: UInt32(APP_MODULE_ABI_VERSION),
            reserved: 0,
            maker: ModuleBox.copyIdentity,
            instance: Unmanaged.passRetained(ModuleBox(module)).toOpaque()
        )
    }

    /// Calls a record's factory into zeroed memory and unwraps the module,
    /// taking over the reference the factory made, if the result is a handle
    /// of this record ABI made by this copy of SectionRegistry.
    ///
    /// The module's `name` is for an error only: a linked record's name is
    /// decoded from its bytes each time it is asked for.
    static func make(
        with factory: app_module_factory,
        module name: @autoclosure () -> String
    ) throws(HostError) -> any AppModule {
        var handle = AppModuleHandle()
        app_modules_call_factory(factory, &handle)
        return try take(handle, module: name(), factory: factory)
    }

    /// The module `handle` carries, once it is checked to be a handle of
    /// this SectionRegistry; `factory` made it, if a record's.
    static func take(
        _ handle: AppModuleHandle, module name: @autoclosure () -> String, factory: app_module_factory?
    ) throws(HostError) -> any AppModule {
        guard let instance = handle.instance, handle.magic == APP_MODULE_HANDLE_MAGIC else {
            throw .factoryFailed(.factoryNotAHandle, module: name(), factory: factory)
        }
        guard handle.version == APP_MODULE_ABI_VERSION else {
            throw .factoryFailed(.factoryOtherVersion, module: name(), factory: factory, recordVersion: Int(handle.version))
        }
        guard handle.maker == ModuleBox.copyIdentity else {
            // Its box is another copy's class: leaked, never released here.
            throw .factoryFailed(.factoryOtherCopy, module: name(), factory: factory)
        }
        return Unmanaged<ModuleBox>.fromOpaque(instance).takeRetainedValue().module
    }
}

/// Carries an existential through C's `void *`.
private final class ModuleBox: Sendable {
    let module: any AppModule

    init(_ module: some AppModule) {
        self.module = module
    }

    /// This copy of SectionRegistry: the address of this private class's
    /// metadata, which every other copy (a library that linked its own) has
    /// at another address.
    static var copyIdentity: UnsafeRawPointer { unsafeBitCast(ModuleBox.self, to: UnsafeRawPointer.self) }
}
