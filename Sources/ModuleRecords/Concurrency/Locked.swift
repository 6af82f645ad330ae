/// A value behind a `pthread_mutex_t`: what the registry uses instead of
/// `Synchronization.Mutex`.
///
/// On Linux, `Mutex` hands a contended lock over with priority-inheritance
/// futexes inside the uninstrumented runtime library, so ThreadSanitizer
/// never sees that hand-over and reports the accesses under the lock as data
/// races (it did, intermittently, in StressTests). `pthread_mutex_lock` is
/// intercepted by ThreadSanitizer, so the sanitizer run checks the real
/// thing. The critical sections are short and never suspend.
package final class Locked<Value> {
    private let mutex = PthreadMutex()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    deinit {
        mutex.destroy()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { () throws(Failure) -> Result in try body(&value) }
    }
}

// The value is only reached under the mutex.
extension Locked: @unchecked Sendable where Value: Sendable {}
