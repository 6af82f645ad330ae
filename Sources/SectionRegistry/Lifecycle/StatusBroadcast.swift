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
        var followers: [Follower] = []
        var nextFollower = 0
        /// Who waits for the final status: `nil` for them if they give up
        /// first (cancelled), and an id to find them by then.
        var finalWaiters: [FinalWaiter] = []
        var nextFinalWaiter = 0
    }

    // Structs, not tuples: the runtime makes a tuple type's metadata from
    // its mangled name on first use, and an array of tuples' too.
    private struct Follower {
        let id: Int
        let continuation: AsyncStream<HostStatus>.Continuation
    }

    private struct FinalWaiter {
        let id: Int
        let waiter: Waiter<HostStatus?>
    }

    /// Who a published status goes to.
    private struct Audience {
        var followers: [Follower] = []
        var finalWaiters: [FinalWaiter] = []
    }

    private let state = Locked(State())

    var current: HostStatus {
        state.withLock { $0.current }
    }

    /// Makes `status` the current one and sends it to every stream; a final
    /// status ends them.
    func publish(_ status: HostStatus) {
        let audience = state.withLock { state -> Audience in
            state.current = status
            guard status.isFinal else { return Audience(followers: state.followers) }
            defer {
                state.followers = []
                state.finalWaiters = []
            }
            return Audience(followers: state.followers, finalWaiters: state.finalWaiters)
        }
        for finalWaiter in audience.finalWaiters { finalWaiter.waiter.resume(returning: status) }
        // Outside the lock: finishing runs the streams' termination handlers,
        // which take it.
        for follower in audience.followers {
            follower.continuation.yield(status)
            if status.isFinal { follower.continuation.finish() }
        }
    }

    /// The final status, once it is published; not cut short by the
    /// cancellation of the waiting task.
    func final() async -> HostStatus {
        await final(untilCancelled: false)!
    }

    /// The final status, once it is published, or `nil` once the waiting
    /// task is cancelled (if `untilCancelled`): what ``ModuleHost/terminate()``
    /// waits for. A waiter, not a stream of ``updates()``: a host that
    /// stops makes no stream, whose types' first use costs the runtime
    /// more than the rest of the wait.
    func final(untilCancelled: Bool) async -> HostStatus? {
        let id = state.withLock { state in
            defer { state.nextFinalWaiter += 1 }
            return state.nextFinalWaiter
        }
        let wait = {
            await suspend { (waiter: Waiter<HostStatus?>) in
                let now = self.state.withLock { state -> HostStatus?? in
                    if state.current.isFinal { return .some(state.current) }
                    if untilCancelled && Task.isCancelled { return .some(nil) }
                    state.finalWaiters.append(FinalWaiter(id: id, waiter: waiter))
                    return nil
                }
                if let now { waiter.resume(returning: now) }
            }
        }
        guard untilCancelled else { return await wait() }
        return await withTaskCancellationHandler(operation: wait) {
            state.withLock { state -> Waiter<HostStatus?>? in
                guard let index = state.finalWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.finalWaiters.remove(at: index).waiter
            }?.resume(returning: nil)
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
                state.followers.append(Follower(id: id, continuation: continuation))
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
