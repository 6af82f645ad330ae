import Synchronization

/// A one-shot gate: ``wait()`` suspends until ``open()``. What a server's
/// `serve()` and its shutdown are to a drain, the same in every peer, so
/// that the table measures the library around it and nothing else.
public final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    public init() {}

    /// Returns once the gate is open (at once if it is).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let openAlready = state.withLock { state in
                if !state.isOpen { state.waiter = continuation }
                return state.isOpen
            }
            if openAlready { continuation.resume() }
        }
    }

    public func open() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }
}
