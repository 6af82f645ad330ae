/// A host's current ``HostStatus`` and the streams that follow it.
///
/// Only the host's actor publishes, one status at a time, so every stream
/// sees the changes in order; a stream made later starts with the current
/// status, so nobody who asks misses the one they wait for.
final class StatusBroadcast: Sendable {
    private struct State {
        var current = HostStatus.idle
        /// A list, not a dictionary by id: a host has few followers, and
        /// the first `[Int: ...]` of a process looks up `Int: Hashable` in
        /// every image's conformance records.
        var followers: [(id: Int, continuation: AsyncStream<HostStatus>.Continuation)] = []
        var nextFollower = 0
        var finalWaiters: [Waiter<HostStatus>] = []
    }

    private let state = Locked(State())

    var current: HostStatus {
        state.withLock { $0.current }
    }

    /// Makes `status` the current one and sends it to every stream; a final
    /// status ends them.
    func publish(_ status: HostStatus) {
        let (followers, finalWaiters) = state.withLock { state in
            state.current = status
            defer {
                if status.isFinal {
                    state.followers = []
                    state.finalWaiters = []
                }
            }
            return (state.followers.map(\.continuation), status.isFinal ? state.finalWaiters : [])
        }
        for waiter in finalWaiters { waiter.resume(returning: status) }
        // Outside the lock: finishing runs the streams' termination handlers,
        // which take it.
        for follower in followers {
            follower.yield(status)
            if status.isFinal { follower.finish() }
        }
    }

    /// The final status, once it is published; not cut short by the
    /// cancellation of the waiting task.
    func final() async -> HostStatus {
        await suspend { continuation in
            let final = state.withLock { state -> HostStatus? in
                if state.current.isFinal { return state.current }
                state.finalWaiters.append(continuation)
                return nil
            }
            if let final { continuation.resume(returning: final) }
        }
    }

    /// The current status, then every change, up to a final status.
    func updates() -> AsyncStream<HostStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: HostStatus.self)
        let shared = state
        // The current status is sent under the lock, so that a change
        // published meanwhile comes after it.
        shared.withLock { state in
            continuation.yield(state.current)
            if state.current.isFinal {
                continuation.finish()
            } else {
                let id = state.nextFollower
                state.followers.append((id, continuation))
                // The state, not the broadcast: a weak reference to the
                // broadcast needs a side table, whose address Swift keeps
                // encoded in the object's reference count, where the leak
                // checker cannot see it; it reported one per stream of a
                // host still alive at exit. The state holds the stream only
                // until it ends, and it ends at the latest with a final status.
                continuation.onTermination = { _ in
                    shared.withLock { $0.followers.removeAll { $0.id == id } }
                }
                state.nextFollower += 1
            }
        }
        return stream
    }
}
