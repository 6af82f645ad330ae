#if canImport(Glibc)
import Glibc
#endif
import ModuleRecords

/// A value behind a `pthread_mutex_t`: what the registry uses instead of
/// `Synchronization.Mutex`.
///
/// On Linux, `Mutex` hands a contended lock over with priority-inheritance
/// futexes inside the uninstrumented runtime library, so ThreadSanitizer
/// never sees that hand-over and reports the accesses under the lock as data
/// races (it did, intermittently, in StressTests). `pthread_mutex_lock` is
/// intercepted by ThreadSanitizer, so the sanitizer run checks the real
/// thing. The critical sections are short and never suspend.
///
/// A struct holding an object that is not generic, rather than a generic
/// class: the first use of each `Locked<Value>` class made its metadata from
/// the type's mangled name (about 15 k instructions, a dozen value types in
/// a host), and a value reached through the class's `var` paid a dynamic
/// exclusivity check on every round trip. This struct's code is
/// specialized for each value and makes no metadata. Copies share the
/// value, as references to one object would.
///
/// The mutex and the value live in the object's own memory: one
/// allocation a lock, not three (a host makes one for every module's `run`).
package struct Locked<Value> {
    private let storage: LockStorage

    package init(_ value: Value) {
        storage = LockStorage.make(
            size: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment,
            initialize: { $0.initializeMemory(as: Value.self, to: value) },
            destroy: { $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
        )
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let (mutex, value) = storage.parts
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value.assumingMemoryBound(to: Value.self).pointee)
    }
}

// The value is only reached under the mutex.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// A ``Locked`` value's mutex and memory, whatever the value's type, in the
/// object's tail; the value is destroyed with the last copy.
private final class LockStorage: ManagedBuffer<LockStorage.Parts, UInt8> {
    struct Parts {
        let mutex: PthreadMutex
        /// The value, in the object's tail after the mutex.
        let value: UnsafeMutableRawPointer
        let destroy: (UnsafeMutableRawPointer) -> Void
    }

    /// A storage with room for the mutex and a value of `size` and
    /// `alignment`, the value initialized by `initialize`.
    static func make(
        size: Int, alignment: Int, initialize: (UnsafeMutableRawPointer) -> Void,
        destroy: @escaping (UnsafeMutableRawPointer) -> Void
    ) -> LockStorage {
        let mutexSize = MemoryLayout<pthread_mutex_t>.size
        let mutexAlignment = MemoryLayout<pthread_mutex_t>.alignment
        // The tail is aligned to a byte: room to align both parts in it.
        let capacity = mutexAlignment + mutexSize + alignment + size
        let buffer = create(minimumCapacity: capacity) { buffer in
            buffer.withUnsafeMutablePointerToElements { tail in
                let mutex = UnsafeMutableRawPointer(tail).alignedUp(toMultipleOf: mutexAlignment)
                let value = (mutex + mutexSize).alignedUp(toMultipleOf: alignment)
                initialize(value)
                return Parts(
                    mutex: PthreadMutex(in: mutex.assumingMemoryBound(to: pthread_mutex_t.self)),
                    value: value, destroy: destroy
                )
            }
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    /// The mutex and the value, read in place: no copy of `destroy`.
    var parts: (mutex: PthreadMutex, value: UnsafeMutableRawPointer) {
        withUnsafeMutablePointerToHeader { ($0.pointee.mutex, $0.pointee.value) }
    }

    deinit {
        header.mutex.deinitialize()
        header.destroy(header.value)
    }
}
