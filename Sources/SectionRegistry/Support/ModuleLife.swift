import Synchronization

/// One module's life as its host and its context share it: whether it is
/// alive, what it registered, whether its `run` was asked to drain, and
/// whether that `run` said it is ready.
///
/// **Alive** is the one fact that says whether anything of the module may
/// still happen: true from creation until the host forgets the module
/// (removed, stopped, rolled back, or the host stopped). A dispatch calls a
/// module's handler only while it is alive; a registration from a module
/// that is no longer alive (a hook or handler left behind past its limit)
/// is refused.
@usableFromInline
final class ModuleLife: Sendable {
    let moduleName: String
    @usableFromInline let alive = Atomic<Bool>(true)
    private let state = Mutex(State())

    private struct State {
        /// The event types it has handlers for, once each: what forgetting
        /// it must visit, so that forgetting costs what it registered.
        var handlerEvents: [ObjectIdentifier] = []
        /// The service types it registered.
        var services: [ObjectIdentifier] = []
        /// Whether a refused registration was logged already: once is enough.
        var refusalLogged = false
        /// Whether the host asked the `run` to finish.
        var drainRequested = false
        /// Until then, what the request wakes and calls. The waiters in a
        /// list, not a dictionary by id: every module makes one, and the
        /// first `[Int: ...]` of a process looks up `Int: Hashable` in every
        /// image's conformance records. A `run` has one waiter or none.
        /// Fields of their own, not an enum's payloads: a list taken out of
        /// a payload to change it is shared, and each change copied it.
        var drainWaiters: [(id: Int, continuation: Waiter<Void>)] = []
        /// The drain handlers whose scopes are open, in the order they were
        /// added: the first in place, the others in a list. A `run` has one
        /// (or a few, nested), and a list's storage for the one would be an
        /// allocation for every `run`. Filled only while the list is empty,
        /// the first is older than every handler in the list.
        var drainHandler: ScopedHandler?
        var laterDrainHandlers: [ScopedHandler] = []
        var nextWaiter = 0
        var readiness = Readiness.undeclared(warned: false)
        /// What `cancelOnDrain` did with the work it runs at the drain.
        var cancelledWork = CancelledWork.none
        /// When the host stops waiting for the `run` to drain; `nil` before
        /// the intake step.
        var drainDeadline: ContinuousClock.Instant?
        /// The intake-stop handlers whose scopes are open; `nil` once the
        /// host stopped the module's intake.
        var intakeStops: [ScopedStep]? = []
        /// The lame-duck waits whose scopes are open; `nil` once the host
        /// took them, at the lame-duck step.
        var lameDuckWaits: [ScopedStep]? = []
    }

    private enum Readiness {
        /// The module does not declare ``AppModule/runReportsReady``: nobody
        /// waits; a report is a mistake, warned about once.
        case undeclared(warned: Bool)
        case notReported(waiter: Waiter<Void>?)
        case reported
        /// The `run` ended before it reported: nobody waits any more.
        case abandoned
    }

    init(moduleName: String) {
        self.moduleName = moduleName
    }

    // MARK: Alive

    @inlinable
    var isAlive: Bool {
        alive.load(ordering: .acquiring)
    }

    /// Ends the module's life; what it registered is returned once, for the
    /// host to forget. Later calls return nothing.
    func end() -> (handlerEvents: [ObjectIdentifier], services: [ObjectIdentifier])? {
        guard alive.exchange(false, ordering: .acquiringAndReleasing) else { return nil }
        return state.withLock { state in
            defer { state.handlerEvents = []; state.services = [] }
            return (state.handlerEvents, state.services)
        }
    }

    /// Registers something of the module's with `insert`, if the module is
    /// alive, and records it (when `insert` says it was inserted) for
    /// ``end()``. Refused when it is not alive: `firstRefusal` is `true`
    /// the first time only, for one log line.
    func register(
        handlerFor event: ObjectIdentifier? = nil, service: ObjectIdentifier? = nil, _ insert: () -> Bool
    ) -> (accepted: Bool, firstRefusal: Bool) {
        state.withLock { state in
            // Inserted under this lock: end() takes the lists under it too,
            // so a registration is either in them, and forgotten with the
            // module, or refused; never left behind.
            guard isAlive else {
                defer { state.refusalLogged = true }
                return (false, !state.refusalLogged)
            }
            guard insert() else { return (true, false) }
            if let event, !state.handlerEvents.contains(event) { state.handlerEvents.append(event) }
            if let service { state.services.append(service) }
            return (true, false)
        }
    }

    // MARK: Drain

    /// Whether the host has asked the module's `run` to finish.
    var isDrainRequested: Bool {
        state.withLock { $0.drainRequested }
    }

    /// Asks the module's `run` to finish: wakes its waiters and calls the
    /// handlers whose scopes are open, once.
    func requestDrain() {
        // Taken out of the state by swapping: no copy of a list, and no
        // empty list made to put back.
        var waiters: [(id: Int, continuation: Waiter<Void>)] = []
        var first: ScopedHandler?
        var later: [ScopedHandler] = []
        state.withLock { state in
            guard !state.drainRequested else { return }
            state.drainRequested = true
            swap(&waiters, &state.drainWaiters)
            swap(&first, &state.drainHandler)
            swap(&later, &state.laterDrainHandlers)
        }
        for waiter in waiters { waiter.continuation.resume() }
        first?.call()
        for handler in later { handler.call() }
    }

    /// What the `run`'s `cancelOnDrain` did with its work at the drain:
    /// what the warning of a `run` that holds the drain must blame.
    var cancelledWork: CancelledWork {
        get { state.withLock { $0.cancelledWork } }
        set { state.withLock { $0.cancelledWork = newValue } }
    }

    /// When the host stops waiting for the `run` to drain, set at the
    /// intake step (the intake and the drain share one limit).
    var drainDeadline: ContinuousClock.Instant? {
        get { state.withLock { $0.drainDeadline } }
        set { state.withLock { $0.drainDeadline = newValue } }
    }

    /// The work a `run`'s `cancelOnDrain` runs, at the drain.
    enum CancelledWork {
        /// Not cancelled: no `cancelOnDrain` ran at the drain.
        case none
        /// Cancelled, and still running: it swallows its cancellation.
        case running
        /// Cancelled, and ended: a `run` that goes on holds the drain
        /// after it.
        case ended
    }

    /// Returns once the drain is requested, or the calling task is
    /// cancelled.
    func drainRequested() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await suspend { (continuation: Waiter<Void>) in
                let now = state.withLock { state -> Bool in
                    guard !state.drainRequested, !Task.isCancelled else { return true }
                    state.drainWaiters.append((id, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> Waiter<Void>? in
                guard let index = state.drainWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.drainWaiters.remove(at: index).continuation
            }?.resume()
        }
    }

    /// Adds `handler`, called once when the drain is requested, until
    /// ``removeDrainHandler(_:)`` closes its scope.
    ///
    /// - Returns: the handler's id; `nil` if the drain was requested
    ///   already (the caller calls it then).
    @usableFromInline
    func addDrainHandler(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state -> Int? in
            guard !state.drainRequested else { return nil }
            let id = state.nextWaiter
            state.nextWaiter += 1
            if state.drainHandler == nil, state.laterDrainHandlers.isEmpty {
                state.drainHandler = ScopedHandler(id: id, call: handler)
            } else {
                state.laterDrainHandlers.append(ScopedHandler(id: id, call: handler))
            }
            return id
        }
    }

    /// Closes the scope of the handler `id`: it is never called after this.
    @usableFromInline
    func removeDrainHandler(_ id: Int) {
        state.withLock { state in
            if state.drainHandler?.id == id {
                state.drainHandler = nil
            } else if !state.laterDrainHandlers.isEmpty {
                // Not when emptied by the drain: no copy of the shared empty
                // array that a mutation would make.
                state.laterDrainHandlers.removeAll { $0.id == id }
            }
        }
    }


    /// Runs `operation`; `handler` is called once if the drain is requested
    /// while it runs (at once if it was already), never after it returned.
    /// Inlinable, with ``ModuleContext``'s, whose body it is: specialized
    /// where a `run` calls it, it costs that `run` no async frame of its
    /// own, and no buffers made at run time for a generic result and error.
    @inlinable
    func withDrainHandler<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T, onDrain handler: @escaping @Sendable () -> Void
    ) async throws(Failure) -> T {
        guard let id = addDrainHandler(handler) else {
            handler()
            return try await operation()
        }
        defer { removeDrainHandler(id) }
        return try await operation()
    }

    // MARK: Intake

    /// Whether a scope with an intake-stop handler is open: the host has
    /// something to wait for.
    var hasIntakeStop: Bool {
        state.withLock { !($0.intakeStops ?? []).isEmpty }
    }

    /// Stops the module's intake: calls the intake-stop handlers whose
    /// scopes are open, one after the other, once.
    func stopIntake() async {
        for handler in takeSteps(\.intakeStops) { await handler.call() }
    }

    /// Runs `operation` with `stopIntake` called once if the host stops the
    /// module's intake while it runs (at once, first, if it did already),
    /// and `handler` once if the drain is requested while it runs.
    func withDrainHandler<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T,
        onIntakeStop stopIntake: @escaping @Sendable () async -> Void,
        onDrain handler: @escaping @Sendable () -> Void
    ) async throws(Failure) -> T {
        guard let id = openScope(\.intakeStops, stopIntake) else {
            await stopIntake()
            return try await withDrainHandler(operation, onDrain: handler)
        }
        defer { closeScope(\.intakeStops, id) }
        return try await withDrainHandler(operation, onDrain: handler)
    }

    // MARK: Lame duck

    /// Takes the lame-duck waits whose scopes are open, once: the host calls
    /// them at its lame-duck step. A scope opened later is not waited for.
    func takeLameDuckWaits() -> [@Sendable () async -> Void] {
        takeSteps(\.lameDuckWaits).map(\.call)
    }

    /// Runs `operation` with `wait` among what the host's lame-duck step
    /// waits for, if that step comes while it runs.
    func withLameDuckWait<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T,
        until wait: @escaping @Sendable () async -> Void
    ) async throws(Failure) -> T {
        let id = openScope(\.lameDuckWaits, wait)
        defer { if let id { closeScope(\.lameDuckWaits, id) } }
        return try await operation()
    }

    // MARK: Scoped steps

    /// Adds `call` to the steps at `steps` for a scope: its id, or `nil` if
    /// the host took them already (the step came before the scope).
    private func openScope(_ steps: WritableKeyPath<State, [ScopedStep]?>, _ call: @escaping @Sendable () async -> Void) -> Int? {
        state.withLock { state -> Int? in
            guard state[keyPath: steps] != nil else { return nil }
            let id = state.nextWaiter
            state.nextWaiter += 1
            state[keyPath: steps]?.append(ScopedStep(id: id, call: call))
            return id
        }
    }

    /// The scope `id` ended: its step is no longer called.
    private func closeScope(_ steps: WritableKeyPath<State, [ScopedStep]?>, _ id: Int) {
        state.withLock { state in state[keyPath: steps]?.removeAll { $0.id == id } }
    }

    /// The steps at `steps` whose scopes are open, taken once: a scope
    /// opened later finds them taken.
    private func takeSteps(_ steps: WritableKeyPath<State, [ScopedStep]?>) -> [ScopedStep] {
        state.withLock { state in
            defer { state[keyPath: steps] = nil }
            return state[keyPath: steps] ?? []
        }
    }

    // MARK: Readiness

    /// The module declares that its `run` reports readiness: the host
    /// waits for it.
    func expectReadiness() {
        state.withLock { $0.readiness = .notReported(waiter: nil) }
    }

    /// The `run` says it is ready; later calls change nothing.
    ///
    /// - Returns: `true` the first time a module that does not declare
    ///   readiness reports it: a mistake to warn about.
    func reportReady() -> Bool {
        let (waiter, undeclared) = state.withLock { state -> (Waiter<Void>?, Bool) in
            switch state.readiness {
            case .undeclared(let warned):
                state.readiness = .undeclared(warned: true)
                return (nil, !warned)
            case .notReported(let waiter):
                state.readiness = .reported
                return (waiter, false)
            case .reported, .abandoned:
                return (nil, false)
            }
        }
        waiter?.resume()
        return undeclared
    }

    /// Wakes the host's wait for readiness without it: the `run` ended
    /// first. Later reports change nothing.
    func endReadinessWait() {
        state.withLock { state -> Waiter<Void>? in
            guard case .notReported(let waiter) = state.readiness else { return nil }
            state.readiness = .abandoned
            return waiter
        }?.resume()
    }

    /// Whether the `run` said it is ready.
    var isReady: Bool {
        state.withLock { if case .reported = $0.readiness { true } else { false } }
    }

    /// Returns once the `run` has said it is ready, or ended (see
    /// ``endReadinessWait()``), or the waiting task is cancelled. One
    /// waiter: the host.
    func ready() async {
        await withTaskCancellationHandler {
            await suspend { (continuation: Waiter<Void>) in
                let now = state.withLock { state -> Bool in
                    guard case .notReported(nil) = state.readiness, !Task.isCancelled else { return true }
                    state.readiness = .notReported(waiter: continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> Waiter<Void>? in
                guard case .notReported(let waiter?) = state.readiness else { return nil }
                state.readiness = .notReported(waiter: nil)
                return waiter
            }?.resume()
        }
    }
}

/// A drain handler, with the id that closes its scope. A struct, not a
/// tuple: a function stored in an array as a tuple's member is stored
/// reabstracted, behind a closure allocated for it.
private struct ScopedHandler {
    let id: Int
    let call: @Sendable () -> Void
}

/// An intake-stop handler or a lame-duck wait, with the id that closes its
/// scope (a struct for the reason ``ScopedHandler`` gives).
private struct ScopedStep {
    let id: Int
    let call: @Sendable () async -> Void
}
