import Synchronization

/// The one serial path of a ``ModuleHost``: every request that changes its
/// modules (launch, load, unload, remove, reload, terminate) waits here for
/// its turn, and one task, the host's engine, performs them one at a time to
/// the end. Nothing that changes the modules interleaves, whatever the
/// callers' tasks do.
///
/// It also holds the host's one shutdown state (``Shutdown``): a shutdown
/// does not wait for its turn to begin, it interrupts the launch, load or
/// reload under way (see Shutdown.swift for the whole path).
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
        func isStopping(_ run: ModuleLife) -> Bool {
            if shutdown.begun { return true }
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
        var shutdown = Shutdown.none
        var nextID = 0
    }

    enum Wait {
        case phase(PhaseRun)
        case runs([ModuleRun])
        /// The lame-duck delay, or the intake stops.
        case step(ShutdownStep)
    }

    private let state = Locked(State())
    /// Whether the shutdown was cut short, readable without the lock: a
    /// drain asks before each `run`. Set before any wait is cut off.
    private let cutShortFlag = Atomic<Bool>(false)

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

    /// Queues `request`; `startEngine` is called when no engine runs.
    ///
    /// - Returns: `false`, and nothing is queued, when the request comes
    ///   from a `run` the host is stopping: a shutdown has begun, or the
    ///   current request waits for that `run` to end. Decided under the
    ///   lock that ``waitsFor(endingRuns:)`` takes, so a request is either
    ///   refused or among ``waitingRuns``, never waited for by its own run.
    func submit(_ request: Request, startEngine: () -> Void) -> Bool {
        let (accepted, start) = state.withLock { state -> (Bool, Bool) in
            if let run = request.callerRun, request.kind != .terminate, state.isStopping(run) { return (false, false) }
            state.queue.append(request)
            defer { state.engineRunning = true }
            return (true, !state.engineRunning)
        }
        if start { startEngine() }
        return accepted
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
            state.cancelled.contains(id) || (state.shutdown.begun && kind.bringsUp)
        }
    }

    // MARK: What the current request waits for

    /// Makes `phase` what the current request waits for, interrupting or
    /// cutting it short at once if that was asked for already.
    func waitsFor(_ phase: PhaseRun) {
        let (interrupt, cutShort) = state.withLock { state -> (Bool, Bool) in
            state.waitingFor = .phase(phase)
            guard let current = state.current else { return (false, false) }
            // A rollback's stop hooks are not interrupted: only cut short.
            let interrupt = phase.phase != .stop && current.kind.bringsUp
                && (state.cancelled.contains(current.id) || state.shutdown.begun)
            return (interrupt, state.shutdown.isCutShort && phase.phase == .stop)
        }
        if interrupt { phase.interrupt() }
        if cutShort { phase.cutShort() }
    }

    /// Makes `runs` what the current request waits for: a cut short ends
    /// the wait for each at once.
    func waitsFor(endingRuns runs: [ModuleRun]) {
        let cutShort = state.withLock { state in
            state.waitingFor = .runs(runs)
            return state.shutdown.isCutShort
        }
        if cutShort { for run in runs { run.cutOff() } }
    }

    /// Makes `step` what the shutdown waits for: a cut short ends it at
    /// once.
    func waitsFor(step: ShutdownStep) {
        let cutShort = state.withLock { state in
            state.waitingFor = .step(step)
            return state.shutdown.isCutShort
        }
        if cutShort { step.end() }
    }

    // MARK: Shutdown

    var shutdown: Shutdown {
        state.withLock { $0.shutdown }
    }

    /// Whether a second stop cut the shutdown short (``cutShort(_:)``).
    var isCutShort: Bool {
        cutShortFlag.load(ordering: .acquiring)
    }

    /// Asks the host to stop: the launch, load or reload under way is
    /// interrupted, and none begins after. `announce` is called first, if
    /// this is the first stop asked for, so that what it logs comes before
    /// what the interruption logs.
    ///
    /// - Returns: whether this is the first stop asked for.
    func requestStop(_ reason: StopReason, announce: () -> Void) -> Bool {
        let (first, phase) = state.withLock { state -> (Bool, PhaseRun?) in
            guard case .none = state.shutdown else { return (false, nil) }
            state.shutdown = .requested(reason)
            guard let current = state.current, current.kind.bringsUp, case .phase(let phase) = state.waitingFor,
                  phase.phase != .stop else { return (true, nil) }
            return (true, phase)
        }
        if first { announce() }
        phase?.interrupt()
        return first
    }

    /// Cuts shutdown short: the wait under way ends at once (the stop hook
    /// running is cut off, `run`s not yet ended are cut off), and the stop
    /// hooks not yet called are skipped.
    func cutShort(_ reason: StopReason) {
        let wait = state.withLock { state -> Wait? in
            state.shutdown = .cutShort(state.shutdown.reason ?? reason)
            return state.waitingFor
        }
        cutShortFlag.store(true, ordering: .releasing)
        switch wait {
        case .phase(let phase) where phase.phase == .stop: phase.cutShort()
        case .phase(let phase): phase.interrupt()
        case .runs(let runs): for run in runs { run.cutOff() }
        case .step(let step): step.end()
        case nil: break
        }
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
