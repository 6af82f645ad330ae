/// The one serial path of a ``ModuleHost``: every request that changes its
/// modules (launch, load, unload, remove, reload, terminate) waits here for
/// its turn, and one task, the host's engine, performs them one at a time to
/// the end. Nothing that changes the modules interleaves, whatever the
/// callers' tasks do.
///
/// It knows nothing of the shutdown but what it reads from the host's
/// ``ShutdownStage``: once one has begun, a bring-up is interrupted and a
/// `run`'s request refused (see Shutdown.swift for the whole path).
///
/// It knows who asks, from the calling task's ``RequestOrigin``.
final class HostRequests: Sendable {
    /// What a request does, for what a shutdown or a cancellation does to it.
    enum Kind: Sendable {
        /// Brings modules up: a shutdown interrupts it.
        case launch, load, reload
        /// Stops modules: a shutdown waits for it.
        case remove, unload
        /// Stops every module.
        case terminate
    }

    struct Request: Sendable {
        let id: Int
        let kind: Kind
        /// The module whose `run` asked, if one did.
        let callerRun: ModuleLife?
        let perform: @Sendable (isolated ModuleHost) async -> Void
    }

    private struct State {
        /// Whether the host is stopping `run`: a shutdown has begun, or the
        /// current request waits for it to end.
        func isStopping(_ run: ModuleLife, _ stage: ShutdownStage) -> Bool {
            if stage.hasBegun { return true }
            guard case .runs(let runs) = waitingFor else { return false }
            return runs.contains { $0.module.life === run }
        }

        var queue: [Request] = []
        var engineRunning = false
        var current: Request?
        /// What the current request waits for now: a phase, or `run`s to end.
        var waitingFor: Wait?
        /// Requests whose callers were cancelled.
        var cancelled: [Int] = []
        var nextID = 0
    }

    enum Wait {
        case phase(PhaseRun)
        case runs([ModuleRun])
    }

    private let state = Locked(State())
    /// The host's shutdown, read (never changed) here: it interrupts
    /// bring-ups and refuses the requests of `run`s it stops.
    private let stage: ShutdownStage

    init(stage: ShutdownStage) {
        self.stage = stage
    }

    /// A new request's identity, for ``cancel(_:_:)``.
    func makeID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    // MARK: Who asks

    /// Whether the calling task is this host's engine or a task it started:
    /// a request from there would wait for itself.
    var calledFromEngine: Bool {
        if case .engine(let host) = RequestOrigin.current { host == ObjectIdentifier(self) } else { false }
    }

    /// The module whose `run` (of this host) the calling task is, if any.
    var callingRun: ModuleLife? {
        if case .run(let host, let life) = RequestOrigin.current, host == ObjectIdentifier(self) { life } else { nil }
    }

    /// Whether the calling task is inside this host: its engine, or a `run`.
    var calledFromInside: Bool {
        calledFromEngine || callingRun != nil
    }

    // MARK: The queue

    /// Queues `request`; `startEngine` is called when no engine runs, under
    /// the lock: an engine that ends and the one started after it are
    /// started in that order.
    ///
    /// - Returns: `false`, and nothing is queued, when the request comes
    ///   from a `run` the host is stopping: a shutdown has begun, or the
    ///   current request waits for that `run` to end. Decided under the
    ///   lock that ``waitsFor(endingRuns:)`` takes, so a request is either
    ///   refused or among ``waitingRuns``, never waited for by its own run.
    func submit(_ request: Request, startEngine: () -> Void) -> Bool {
        state.withLock { state in
            if let run = request.callerRun, request.kind != .terminate, state.isStopping(run, stage) { return false }
            state.queue.append(request)
            if !state.engineRunning {
                state.engineRunning = true
                startEngine()
            }
            return true
        }
    }

    /// The engine's next request, made current; `nil` (and the engine
    /// ends) when none is waiting.
    func next() -> Request? {
        state.withLock { state in
            if let finished = state.current { state.cancelled.removeAll { $0 == finished.id } }
            state.current = nil
            state.waitingFor = nil
            guard !state.queue.isEmpty else {
                state.engineRunning = false
                return nil
            }
            let request = state.queue.removeFirst()
            state.current = request
            return request
        }
    }

    /// The modules whose `run`s wait for a request, the current one or one
    /// queued: the engine must not wait for those `run`s to end, since they
    /// cannot return before their request is answered. Each is cancelled,
    /// and returns once it has its answer.
    var waitingRuns: [ModuleLife] {
        state.withLock { state in
            ([state.current?.callerRun] + state.queue.map(\.callerRun)).compactMap { $0 }
        }
    }

    /// Whether the request `id` should go no further: its caller was
    /// cancelled, or it brings modules up and the host is to stop.
    func isInterrupted(_ id: Int, _ kind: Kind) -> Bool {
        state.withLock { state in
            state.cancelled.contains(id) || (stage.hasBegun && kind.bringsUp)
        }
    }

    // MARK: What the current request waits for

    /// Makes `phase` what the current request waits for, interrupting it
    /// at once if its request was interrupted already.
    func waitsFor(_ phase: PhaseRun) {
        let interrupt = state.withLock { state -> Bool in
            state.waitingFor = .phase(phase)
            guard let current = state.current else { return false }
            // A rollback's stop hooks are not interrupted.
            return phase.phase != .stop && current.kind.bringsUp && (state.cancelled.contains(current.id) || stage.hasBegun)
        }
        if interrupt { phase.interrupt() }
    }

    /// Makes `runs` what the current request waits for: a request from one
    /// of them is refused from now on.
    func waitsFor(endingRuns runs: [ModuleRun]) {
        state.withLock { $0.waitingFor = .runs(runs) }
    }

    /// The host began to stop (its ``ShutdownStage`` says so already): the
    /// launch, load or reload under way is interrupted, and none begins
    /// after.
    func interruptBringUp() {
        state.withLock { state -> PhaseRun? in
            guard let current = state.current, current.kind.bringsUp, case .phase(let phase) = state.waitingFor,
                  phase.phase != .stop else { return nil }
            return phase
        }?.interrupt()
    }

    /// The caller of request `id` was cancelled: a request that brings
    /// modules up is interrupted (or refused, if it has not begun); a
    /// removal or unload goes on, its stop hook shielded.
    func cancel(_ id: Int, _ kind: Kind) {
        guard kind.bringsUp else { return }
        let phase = state.withLock { state -> PhaseRun? in
            state.cancelled.append(id)
            guard state.current?.id == id, case .phase(let phase) = state.waitingFor, phase.phase != .stop else { return nil }
            return phase
        }
        phase?.interrupt()
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
