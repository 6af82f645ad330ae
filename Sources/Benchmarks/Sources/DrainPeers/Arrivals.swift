import Synchronization

/// Counts the services whose work has begun: ``all()`` returns once every
/// one of them has, which is when each peer begins its shutdown.
public final class Arrivals: Sendable {
    private let expected: Int
    private let state = Mutex<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))

    public init(expected: Int) {
        self.expected = expected
    }

    /// A service's work has begun.
    public func arrive() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard state.count == expected else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Returns once all the expected services have arrived.
    public func all() async {
        await withCheckedContinuation { continuation in
            let allAlready = state.withLock { state in
                if state.count < expected { state.waiter = continuation }
                return state.count >= expected
            }
            if allAlready { continuation.resume() }
        }
    }
}

/// N, the program's one argument.
public func serviceCount() -> Int {
    guard CommandLine.arguments.count == 2, let count = Int(CommandLine.arguments[1]), count > 0 else {
        fatalError("usage: \(CommandLine.arguments[0]) N (the number of services)")
    }
    return count
}
