/// A step of the shutdown that waits for work done in tasks of their own
/// before the drain: the command's work, or the modules' intake stops. It
/// ends when every piece it waits for is done, at its deadline, or at once
/// when the shutdown is cut short (the waiting task's cancellation).
final class ShutdownStep: Sendable {
    private struct State {
        /// The pieces not done yet.
        var pending: [String]
        var ended = false
        var waiter: Waiter<Void>?
    }

    private let state: Locked<State>

    init(waitingFor pending: [String]) {
        state = Locked(State(pending: pending))
    }

    /// The module named is done.
    func done(_ module: String) {
        state.withLock { state -> Waiter<Void>? in
            if let index = state.pending.firstIndex(of: module) { state.pending.remove(at: index) }
            guard state.pending.isEmpty else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Ends the wait at once: the shutdown is cut short, or the deadline
    /// passed.
    private func end() {
        state.withLock { state -> Waiter<Void>? in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Waits until every piece is done, `deadline` passes, or the waiting
    /// task is cancelled (a second stop: the one place this step gives up).
    ///
    /// - Returns: the pieces not done.
    func wait(until deadline: ContinuousClock.Instant) async -> [String] {
        await withTaskCancellationHandler {
            await withTimer(until: deadline, onExpiry: end) {
                await suspend { (waiter: Waiter<Void>) in
                    let now = state.withLock { state -> Bool in
                        guard !state.ended, !state.pending.isEmpty else { return true }
                        state.waiter = waiter
                        return false
                    }
                    if now { waiter.resume() }
                }
            }
        } onCancel: {
            end()
        }
        return state.withLock { $0.pending }
    }
}
