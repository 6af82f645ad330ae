
/// A value that is settled once: by the first `fulfil`, or by `expire` when
/// its time is up. Later calls are ignored and counted. One waiter at most.
///
/// This is what makes "answered exactly once" and time limits hold even
/// when the code that should answer hangs: the waiter never waits for it,
/// only for this value.
@usableFromInline
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case pending(waiter: Waiter<Value?>?)
        case settled(Value?)
    }

    private let state = Locked<(state: State, ignoredCalls: Int)>((.pending(waiter: nil), 0))

    /// Settles the value; `false` if it was already settled (the call is
    /// counted in ``ignoredCalls``).
    @discardableResult
    func fulfil(_ value: Value) -> Bool {
        let outcome = state.withLock { current -> (accepted: Bool, waiter: Waiter<Value?>?) in
            guard case .pending(let waiter) = current.state else {
                current.ignoredCalls += 1
                return (false, nil)
            }
            current.state = .settled(value)
            return (true, waiter)
        }
        outcome.waiter?.resume(returning: value)
        return outcome.accepted
    }

    /// Settles the value as missing, unless it is settled already.
    func expire() {
        _ = state.withLock { current -> Waiter<Value?>? in
            guard case .pending(let waiter) = current.state else { return nil }
            current.state = .settled(nil)
            return waiter
        }?.resume(returning: nil)
    }

    /// Calls after the value was settled: answers twice, or after the limit.
    @usableFromInline
    var ignoredCalls: Int {
        state.withLock { $0.ignoredCalls }
    }

    /// The value, or `nil` if it is not settled within `limit`, or the
    /// waiting task is cancelled first.
    func value(within limit: Duration) async -> Value? {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: limit)
                self.expire()
            }
            let value = await value()
            group.cancelAll()
            return value
        }
    }

    /// The value once it is settled, `nil` if it expired.
    func value() async -> Value? {
        await suspend { (continuation: Waiter<Value?>) in
            let settled = state.withLock { current -> Value?? in
                switch current.state {
                case .settled(let value):
                    return .some(value)
                case .pending:
                    current.state = .pending(waiter: continuation)
                    return .none
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
