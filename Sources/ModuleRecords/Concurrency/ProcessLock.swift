#if canImport(Glibc)
import Glibc
#endif

/// A `pthread_mutex_t` for process-wide state kept in static variables:
/// ``Locked`` without a value.
///
/// For the statics a process's first discovery touches. `Locked` is
/// generic: the first use of each `Locked<Value>` makes its class metadata
/// at run time (about 32 k instructions for `Locked<[UInt]>`, a tenth of a
/// first discovery), where this class's metadata is static.
package final class ProcessLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "SectionRegistry: pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
