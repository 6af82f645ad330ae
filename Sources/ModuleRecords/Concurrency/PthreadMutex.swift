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
/// as long as the process.
package struct PthreadMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "SectionRegistry: pthread_mutex_init failed")
    }

    package func destroy() {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
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
