/// A wait a ``ShutdownWatch`` ends when it runs out.
protocol WatchedWait: Sendable {
    /// Ends the wait under way: the watch ran out.
    func wake()
}

/// One deadline for a step of the shutdown that waits for several things:
/// the command's work, the intake stops, the `run`s one after the other.
/// When the deadline passes, or the waiting task is cancelled (a second
/// stop), it wakes the wait under way, and every wait after it returns at
/// once. The one place where the shutdown's waits give up on a second stop,
/// but the stop hooks' (``PhaseRun``): one timer for a drain of a thousand
/// `run`s, not a thousand.
final class ShutdownWatch: Sendable {
    private struct State {
        var expired = false
        var cutShort = false
        var watched: (any WatchedWait)?
    }

    private let state = Locked(State())

    var isExpired: Bool {
        state.withLock { $0.expired }
    }

    /// Whether it expired because the shutdown was cut short.
    var isCutShort: Bool {
        state.withLock { $0.cutShort }
    }

    /// Makes `wait` the one under way.
    ///
    /// - Returns: `false` if the watch has expired already.
    @discardableResult
    func watch(_ wait: some WatchedWait) -> Bool {
        state.withLock { state in
            state.watched = wait
            return !state.expired
        }
    }

    private func expire(cutShort: Bool) {
        state.withLock { state -> (any WatchedWait)? in
            state.expired = true
            state.cutShort = state.cutShort || cutShort
            return state.watched
        }?.wake()
    }

    /// Runs `body` with a watch that runs out at `deadline`, or at once when
    /// the calling task is cancelled. Past already (the intake stops took
    /// the drain's whole limit), it has run out before the first wait.
    static func until<T: Sendable>(_ deadline: ContinuousClock.Instant, _ body: (ShutdownWatch) async -> T) async -> T {
        let watch = ShutdownWatch()
        return await withTaskCancellationHandler {
            await withTimer(until: deadline, onExpiry: { watch.expire(cutShort: false) }) { await body(watch) }
        } onCancel: {
            watch.expire(cutShort: true)
        }
    }
}
