/// A task suspended until another resumes it with a `Value`: every wait of
/// the host (for a request's answer, a phase's next event, a status, a
/// `run`'s end) is one.
///
/// An `UnsafeContinuation` inside a struct of its own, not a
/// `CheckedContinuation`. The runtime makes the metadata of a
/// continuation type the first time it is stored (in an optional, an array,
/// a tuple), from its mangled name, and checks `Never: Error` on the way by
/// scanning every loaded image's conformance records: a cost that grows
/// with the program (about 0.2 M instructions a launch with a thousand
/// modules linked). This struct's layout does not depend on `Value`, so its
/// metadata needs no such check. Each wait here is resumed exactly once by
/// construction: a waiter is taken out of its lock-protected state by
/// whoever resumes it, and the tests run under ThreadSanitizer and
/// AddressSanitizer.
struct Waiter<Value>: Sendable {
    private let continuation: UnsafeContinuation<Value, Never>

    fileprivate init(_ continuation: UnsafeContinuation<Value, Never>) {
        self.continuation = continuation
    }

    func resume(returning value: sending Value) {
        continuation.resume(returning: value)
    }
}

extension Waiter where Value == Void {
    func resume() {
        continuation.resume()
    }
}

/// Suspends the current task and calls `body` with its ``Waiter``, which
/// must be resumed exactly once.
func suspend<Value>(_ body: (Waiter<Value>) -> Void) async -> sending Value {
    await withUnsafeContinuation { body(Waiter($0)) }
}
