/// A step of the shutdown that waits for work done in tasks of their own
/// before the drain: the command's work, or the modules' intake stops. It
/// ends when every piece it waits for is done, or when its
/// ``ShutdownWatch`` runs out (its deadline, or a second stop).
final class ShutdownStep: WatchedWait {
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

    /// The piece named is done.
    func done(_ piece: String) {
        state.withLock { state -> Waiter<Void>? in
            if let index = state.pending.firstIndex(of: piece) { state.pending.remove(at: index) }
            guard state.pending.isEmpty else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Ends the wait at once: the watch ran out.
    func wake() {
        state.withLock { state -> Waiter<Void>? in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Waits until every piece is done or `watch` runs out.
    ///
    /// - Returns: the pieces not done.
    func wait(_ watch: ShutdownWatch) async -> [String] {
        if watch.watch(self) {
            await suspend { (waiter: Waiter<Void>) in
                let now = state.withLock { state -> Bool in
                    guard !state.ended, !state.pending.isEmpty else { return true }
                    state.waiter = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        }
        return state.withLock { $0.pending }
    }
}
