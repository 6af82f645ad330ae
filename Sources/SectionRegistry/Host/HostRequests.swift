/// The one serial path of a ``ModuleHost``: every request that changes its
/// modules (launch, load, unload, remove, reload, terminate) waits here for
/// its turn, and one task, the host's engine, performs them one at a time to
/// the end. Nothing that changes the modules interleaves, whatever the
/// callers' tasks do.
///
/// What must act at once does not wait for its turn: a stop (terminate, a
/// signal, the cancellation of the task running the host, a module's `run`
/// that failed) interrupts the launch, load or reload under way, and a
/// second one cuts the shutdown short. A caller's cancellation interrupts
/// its own request.
final class HostRequests: Sendable {
    /// What a request does, for what a stop or a cancellation does to it.
    enum Kind: Sendable {
        /// Brings modules up: a stop interrupts it.
        case launch, load, reload
        /// Stops modules: a stop waits for it.
        case remove, unload
        /// Stops every module: a second stop cuts it short.
        case terminate
    }

    struct Request: Sendable {
        let id: Int
        let kind: Kind
        let perform: @Sendable (isolated ModuleHost) async -> Void
    }

    private struct State {
        var queue: [Request] = []
        var engineRunning = false
        var current: (id: Int, kind: Kind)?
        /// The phase the current request runs now.
        var phase: PhaseRun?
        /// Requests whose callers were cancelled.
        var cancelled: [Int] = []
        var stopRequested = false
        var cutShort = false
        var nextID = 0
    }

    private let state = Locked(State())

    /// A new request's identity, for ``cancel(_:)``.
    func makeID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Queues `request`; `startEngine` is called when no engine runs.
    func submit(_ request: Request, startEngine: () -> Void) {
        let start = state.withLock { state in
            state.queue.append(request)
            defer { state.engineRunning = true }
            return !state.engineRunning
        }
        if start { startEngine() }
    }

    /// The engine's next request, made current; `nil` (and the engine
    /// ends) when none is waiting.
    func next() -> Request? {
        state.withLock { state in
            if let finished = state.current { state.cancelled.removeAll { $0 == finished.id } }
            state.current = nil
            state.phase = nil
            guard !state.queue.isEmpty else {
                state.engineRunning = false
                return nil
            }
            let request = state.queue.removeFirst()
            state.current = (request.id, request.kind)
            return request
        }
    }

    /// Whether the request `id` should go no further: its caller was
    /// cancelled, or it brings modules up and the host is to stop.
    func isInterrupted(_ id: Int, _ kind: Kind) -> Bool {
        state.withLock { state in
            state.cancelled.contains(id) || (state.stopRequested && kind.bringsUp)
        }
    }

    /// Whether a stop was requested.
    var stopRequested: Bool {
        state.withLock { $0.stopRequested }
    }

    /// Makes `phase` the current request's phase, interrupting or cutting
    /// it short at once if that was asked for already.
    func enter(_ phase: PhaseRun) {
        let (interrupt, cutShort) = state.withLock { state -> (Bool, Bool) in
            state.phase = phase
            guard let current = state.current else { return (false, false) }
            // A rollback's stop hooks are not interrupted: only cut short.
            let interrupt = phase.phase != .stop && current.kind.bringsUp
                && (state.cancelled.contains(current.id) || state.stopRequested)
            return (interrupt, state.cutShort && phase.phase == .stop)
        }
        if interrupt { phase.interrupt() }
        if cutShort { phase.cutShort() }
    }

    /// Asks the host to stop: the launch, load or reload under way is
    /// interrupted, and none begins after. `announce` is called first, if
    /// this is the first stop asked for, so that what it logs comes before
    /// what the interruption logs.
    ///
    /// - Returns: whether this is the first stop asked for.
    @discardableResult
    func requestStop(announce: () -> Void = {}) -> Bool {
        let (first, phase) = state.withLock { state -> (Bool, PhaseRun?) in
            defer { state.stopRequested = true }
            let interrupts = (state.current.map { $0.kind.bringsUp } ?? false) && state.phase?.phase != .stop
            return (!state.stopRequested, interrupts ? state.phase : nil)
        }
        if first { announce() }
        phase?.interrupt()
        return first
    }

    /// Cuts shutdown short: the stop hook running is cut off, the others are
    /// skipped.
    func cutShort() {
        let phase = state.withLock { state -> PhaseRun? in
            state.stopRequested = true
            state.cutShort = true
            return state.phase
        }
        if let phase, phase.phase == .stop { phase.cutShort() } else { phase?.interrupt() }
    }

    /// The caller of request `id` was cancelled: a request that brings
    /// modules up is interrupted (or refused, if it has not begun); a
    /// terminate is cut short; a removal goes on, its stop hook shielded.
    func cancel(_ id: Int, _ kind: Kind) {
        switch kind {
        case .terminate:
            cutShort()
        case .remove, .unload:
            return
        case .launch, .load, .reload:
            let phase = state.withLock { state -> PhaseRun? in
                state.cancelled.append(id)
                return state.current?.id == id && state.phase?.phase != .stop ? state.phase : nil
            }
            phase?.interrupt()
        }
    }
}

extension HostRequests.Kind {
    /// Whether a stop interrupts it.
    var bringsUp: Bool {
        switch self {
        case .launch, .load, .reload: true
        case .remove, .unload, .terminate: false
        }
    }
}
