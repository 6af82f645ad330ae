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
package struct Locked<Value> {
    private let storage: LockStorage

    package init(_ value: Value) {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        pointer.initialize(to: value)
        storage = LockStorage(pointer) { $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1).deallocate() }
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        storage.mutex.lock()
        defer { storage.mutex.unlock() }
        return try body(&storage.value.assumingMemoryBound(to: Value.self).pointee)
    }
}

// The value is only reached under the mutex.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// A ``Locked`` value's mutex and memory, whatever the value's type; the
/// value is destroyed with the last copy.
private final class LockStorage {
    let mutex = PthreadMutex()
    let value: UnsafeMutableRawPointer
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init(_ value: UnsafeMutableRawPointer, destroy: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.value = value
        self.destroy = destroy
    }

    deinit {
        mutex.destroy()
        destroy(value)
    }
}
