#if canImport(Glibc)
import Glibc
#endif

/// A `pthread_mutex_t` at a fixed address: the one lock behind
/// SectionRegistry's `Locked` and discovery's process-wide tables.
///
/// Not `Synchronization.Mutex`, for the reason `Locked` gives. A struct
/// without a type parameter, so that a type that holds one needs no
/// metadata made at run time for it.
///
/// Its owner calls ``destroy()`` once, in its `deinit`; a static one lives
/// as long as the process. One made in its owner's memory
/// (``init(in:)``) is ended with ``deinitialize()`` instead.
package struct PthreadMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex in memory of its own.
    package init() {
        self.init(in: .allocate(capacity: 1))
    }

    /// A mutex in `memory`, which its owner keeps at that address until
    /// it calls ``deinitialize()``: one allocation for an object and its
    /// lock, not two.
    package init(in memory: UnsafeMutablePointer<pthread_mutex_t>) {
        mutex = memory
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "SectionRegistry: pthread_mutex_init failed")
    }

    /// Ends a mutex made with ``init()``, and frees its memory.
    package func destroy() {
        deinitialize()
        mutex.deallocate()
    }

    /// Ends a mutex made with ``init(in:)``; its memory stays its owner's.
    package func deinitialize() {
        pthread_mutex_destroy(mutex)
    }

    /// Runs `body` while holding the mutex.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// For a caller in another module on a hot path: ``withLock(_:)`` is
    /// generic, and is not specialized across the module boundary.
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }
}
