#if canImport(Glibc)
import Glibc
#endif
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
            maker: HandleMaker.copyIdentity,
            instance: UnsafeMutableRawPointer(HandleMaker.store(module))
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
        guard handle.maker == HandleMaker.copyIdentity else {
            // Another copy's memory, in its own layout: leaked, never read here.
            throw .factoryFailed(.factoryOtherCopy, module: name(), factory: factory)
        }
        return HandleMaker.take(instance.assumingMemoryBound(to: (any AppModule).self))
    }
}

/// How a handle carries a module through C's `void *`: the existential moved
/// into memory of its own, and moved out again by the reader, which frees
/// the memory. Not a box object: the module was copied out of it, and
/// releasing it destroyed the existential through value witnesses (about
/// 150 instructions a module more).
private final class HandleMaker {
    /// This copy of SectionRegistry: the address of this private class's
    /// metadata, which every other copy (a library that linked its own) has
    /// at another address. The class is never instantiated.
    static var copyIdentity: UnsafeRawPointer { unsafeBitCast(HandleMaker.self, to: UnsafeRawPointer.self) }

    /// The memory is `malloc`'s, not `allocate(capacity:)`'s: the standard
    /// library asks for a type's default alignment with `posix_memalign`,
    /// about 200 instructions more a module.
    static func store(_ module: some AppModule) -> UnsafeMutablePointer<any AppModule> {
        let memory = malloc(MemoryLayout<any AppModule>.size)!.bindMemory(to: (any AppModule).self, capacity: 1)
        memory.initialize(to: module)
        return memory
    }

    static func take(_ memory: UnsafeMutablePointer<any AppModule>) -> any AppModule {
        defer { free(memory) }
        return memory.move()
    }
}
