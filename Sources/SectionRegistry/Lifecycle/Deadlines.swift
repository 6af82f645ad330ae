/// The one timer behind every time limit of the process.
///
/// A limit is an entry here, not a sleeping task of its own: stopping 1,000
/// modules, each within its limit, used to start 1,000 timers on
/// Dispatch's manager thread and wake a thread for each. One task sleeps
/// until the earliest deadline, and is replaced only when a new entry is
/// due sooner than it wakes.
final class Deadlines: Sendable {
    static let shared = Deadlines()

    private struct Entry {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Entry] = []
        var nextID: UInt64 = 0
        /// The sleeping task, which one it is, and when it wakes.
        var timer: (task: Task<Void, Never>, generation: UInt64, wakes: ContinuousClock.Instant)?
    }

    private let state = Locked(State())

    /// Calls `expire` at `deadline`, unless the entry is removed first.
    /// - Returns: the entry, for ``remove(_:)``.
    func add(_ deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, deadline: deadline, expire: expire))
            if state.timer.map({ deadline < $0.wakes }) ?? true {
                state.timer?.task.cancel()
                let generation = id
                state.timer = (Task { await self.sleepUntilDue(deadline, generation: generation) }, generation, deadline)
            }
            return id
        }
    }

    func remove(_ id: UInt64) {
        state.withLock { $0.entries.removeAll { $0.id == id } }
    }

    /// Sleeps until `wakes`, expires what is due, and goes on to the next
    /// deadline; ends when nothing is left or a sooner timer replaced it.
    private func sleepUntilDue(_ wakes: ContinuousClock.Instant, generation: UInt64) async {
        var wakes = wakes
        while true {
            do {
                try await Task.sleep(until: wakes, clock: .continuous)
            } catch {
                return
            }
            let now = ContinuousClock.now
            let step = state.withLock { state -> (due: [Entry], goesOn: Bool)? in
                // Replaced while waking: the new timer owns the entries.
                guard state.timer?.generation == generation else { return nil }
                let due = state.entries.filter { $0.deadline <= now }
                state.entries.removeAll { $0.deadline <= now }
                guard let next = state.entries.map(\.deadline).min() else {
                    state.timer = nil
                    return (due, false)
                }
                state.timer?.wakes = next
                wakes = next
                return (due, true)
            }
            guard let step else { return }
            step.due.forEach { $0.expire() }
            guard step.goesOn else { return }
        }
    }
}
