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
        self.init()
        magic = APP_MODULE_HANDLE_MAGIC
        version = UInt32(APP_MODULE_ABI_VERSION)
        maker = HandleMaker.copyIdentity
        withModuleStorage { $0.initialize(to: module) }
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
        return try take(&handle, module: name(), factory: factory)
    }

    /// Moves out the module `handle` carries, once it is checked to be a
    /// handle of this SectionRegistry; `factory` made it, if a record's.
    /// A refused handle is left as it is: another copy's or another
    /// version's module is leaked, never read here.
    static func take(
        _ handle: inout AppModuleHandle, module name: @autoclosure () -> String, factory: app_module_factory?
    ) throws(HostError) -> any AppModule {
        guard handle.magic == APP_MODULE_HANDLE_MAGIC else {
            throw .factoryFailed(.factoryNotAHandle, module: name(), factory: factory)
        }
        guard handle.version == APP_MODULE_ABI_VERSION else {
            throw .factoryFailed(.factoryOtherVersion, module: name(), factory: factory, recordVersion: Int(handle.version))
        }
        guard handle.maker == HandleMaker.copyIdentity else {
            throw .factoryFailed(.factoryOtherCopy, module: name(), factory: factory)
        }
        // Taken once: the magic goes, so a second take is refused.
        handle.magic = 0
        return handle.withModuleStorage { $0.move() }
    }

    /// The module's place in the handle: the `any AppModule` value itself,
    /// in the words of `instance`. Inline, not in memory of its own: the
    /// `malloc` and `free` that memory took cost about 0.13 k instructions
    /// a module (`Sources/Benchmarks/History.md`, "Issue 55, second round").
    private mutating func withModuleStorage<Result>(
        _ body: (UnsafeMutablePointer<any AppModule>) -> Result
    ) -> Result {
        withUnsafeMutableBytes(of: &instance) { words in
            precondition(words.count >= MemoryLayout<any AppModule>.size, "a handle's words hold `any AppModule`")
            return words.withMemoryRebound(to: (any AppModule).self) { body($0.baseAddress!) }
        }
    }
}

/// The identity of this copy of SectionRegistry in the handles it makes.
private enum HandleMaker {
    /// The address of this private class's metadata, which every other copy
    /// (a library that linked its own) has at another address. The class is
    /// never instantiated.
    private final class Identity {}

    static var copyIdentity: UnsafeRawPointer { unsafeBitCast(Identity.self, to: UnsafeRawPointer.self) }
}
