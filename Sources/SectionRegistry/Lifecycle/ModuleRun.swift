#if canImport(Glibc)
import Glibc
#endif
import ModuleRecords
#if Tracing
import Tracing
#endif

/// A module's ``AppModule/run(_:)``, in a task of the host's that lives
/// until the module stops.
///
/// A task of its own per module, not a child in one task group, because a
/// module's `run` ends alone when it is removed or its plugin unloaded, and
/// Swift cannot cancel one child of a group. The host keeps every one,
/// ends it before the module's stop hook and waits for it: none outlives
/// the host, unless it ignores its cancellation (then it is reported cut off).
///
/// A `run` begins right after its module's start hook returns, while the
/// launch (or load) still goes on: until the host says it is
/// ``join()``ed, a failure belongs to that launch, which fails, and not to
/// the running host, which would stop.
///
/// A struct whose copies share one object: the run's module, start and
/// state, with the mutex that guards the state in the object's own memory
/// (a `ManagedBuffer`'s tail). The state behind a ``Locked`` beside a
/// class of its own was two allocations for every `run`.
struct ModuleRun: @unchecked Sendable {
    // Unchecked: the state is only reached under the mutex, and the rest
    // is fixed once made.
    private let storage: RunStorage

    /// What a run holds: its module and when it began, fixed once made, and
    /// its state, which only the mutex guards.
    fileprivate struct Fields {
        let module: HostedModule
        let start: MonotonicInstant
        var state = State()
    }

    fileprivate struct State {
        /// The task the `run` runs in; set as it begins, before anybody
        /// else knows the run.
        var task: Task<Void, Never>?
        var ended = false
        /// The drain's wait for its end: resumed with `true` when it ends,
        /// `false` when the wait is given up (a second stop, the timer).
        var waiter: Waiter<Bool>?
        /// Whether the launch that began it has finished: then a failure
        /// stops the host.
        var joined = false
        /// A failure (or a return) while the launch still went on.
        var endedDuringLaunch: HookOutcome.Result?
        /// How it ended: a failure or a return; `nil` for an end by
        /// cancellation (or by ``ModuleContext/cancelOnDrain(_:)``).
        var result: HookOutcome.Result?
        /// When it ended, if it was asked to drain by then: the drain's,
        /// not the host's, to report a failure.
        var endInDrain: MonotonicInstant?
    }

    /// A run of `module`, not yet begun.
    private init(_ module: HostedModule) {
        storage = RunStorage.make(Fields(module: module, start: .now))
    }

    /// The fixed fields are read in place, without the lock.
    var module: HostedModule {
        storage.withUnsafeMutablePointerToHeader { $0.pointee.module }
    }

    private var start: MonotonicInstant {
        storage.withUnsafeMutablePointerToHeader { $0.pointee.start }
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// The state is reached through a pointer of its own: an access through
    /// the header's pointer is an access to the whole header, which
    /// ThreadSanitizer reports as a race with the unlocked reads of the
    /// fixed fields beside it.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        storage.withUnsafeMutablePointers { fields, mutex in
            let state = (UnsafeMutableRawPointer(fields) + MemoryLayout<Fields>.offset(of: \Fields.state)!)
                .assumingMemoryBound(to: State.self)
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&state.pointee)
        }
    }

    /// Starts `module`'s `run`, in a task that carries `origin` (so that
    /// the host knows a request from it), inside a graceful-shutdown context
    /// of its own with the `ServiceLifecycle` trait
    /// (``withDrainAsGracefulShutdown(_:_:)``); its host is told if it
    /// throws while not cancelled, once it is joined (``HostState/runFailed``).
    ///
    /// The origin is bound around the making of the task, which copies its
    /// maker's task-local values as it is made: the task binds nothing of
    /// its own, which would cost every `run` an async frame, and a push and
    /// a pop of the binding. The task is kept in the run's state once made,
    /// before the run is returned to anyone who could cancel it.
    static func begin(_ module: HostedModule, origin: RequestOrigin) -> ModuleRun {
        let run = ModuleRun(module)
        let task = RequestOrigin.$current.withValue(origin) { Task { await run.runToEnd() } }
        run.withState { $0.task = task }
        return run
    }

    /// The task's body: the `run`, then how it ended, told to whoever waits.
    /// A failure once the `run` was asked to drain is the drain's outcome,
    /// not a failure that stops the host: it stops already.
    private func runToEnd() async {
        let module = module
        #if Tracing
        // The task's span while the run runs: a child of the launch's.
        let span = module.context.host.spans.beginHook(module.name, at: module.position, .run)
        #endif
        let result: HookOutcome.Result?
        do {
            #if Tracing
            try await InstrumentationContext.withValue(span.context) {
                try await withDrainAsGracefulShutdown(module.life) { try await module.run(.run) }
            }
            #else
            try await withDrainAsGracefulShutdown(module.life) { try await module.run(.run) }
            #endif
            result = .completed
        } catch where Task.isCancelled || (error is CancellationError && module.life.isDrainRequested) {
            // It gave way to its cancellation, or to the drain
            // (cancelOnDrain): that is how a run ends.
            result = nil
        } catch {
            result = .failed(error)
        }
        let end = MonotonicInstant.now
        #if Tracing
        module.context.host.spans.endRun(span, result, at: end)
        #endif
        let drained = module.life.isDrainRequested
        let (waiter, joined) = withState { state in
            state.ended = true
            state.result = result
            if drained { state.endInDrain = end }
            if !state.joined { state.endedDuringLaunch = result }
            defer { state.waiter = nil }
            return (state.waiter, state.joined)
        }
        module.life.endReadinessWait()
        waiter?.resume(returning: true)
        if joined, case .failed = result, !drained {
            let outcome = HookOutcome(module: module.name, phase: .run, result: result!, duration: start.duration(to: end), start: start)
            module.context.host.runFailed.withLock { $0 }?(outcome)
        }
    }

    /// Cancels the task the `run` runs in.
    private func cancel() {
        withState { $0.task }?.cancel()
    }

    /// The launch that began it has finished: from now on a failure stops
    /// the host.
    ///
    /// - Returns: how it ended if it ended while the launch went on: a
    ///   failure, or a return (`.completed`) of a `run` that was to report
    ///   it is ready and never did.
    func join() -> HookOutcome.Result? {
        withState { state in
            state.joined = true
            return state.endedDuringLaunch
        }
    }

    /// Waits until the `run` reports it is ready (its module's
    /// ``AppModule/runReportsReady``), or ends, or `limit` passes; the
    /// caller's cancellation ends the wait too.
    ///
    /// - Throws: what it threw if it failed first, ``RunEndedBeforeReady``
    ///   if it returned first, ``ReadinessTimedOut`` past `limit`.
    func ready(within limit: Duration?) async throws {
        let life = module.life
        let timedOut = await withTaskGroup(of: Bool.self) { group in
            if let limit {
                group.addTask {
                    guard (try? await Task.sleep(for: limit)) != nil else { return false }
                    life.endReadinessWait()
                    return true
                }
            }
            await life.ready()
            group.cancelAll()
            return await group.next() ?? false
        }
        guard !life.isReady else { return }
        // A run that will not be ready goes no further: the failed launch
        // ends it before it stops what it uses.
        cancel()
        let ended = withState { $0.ended ? $0.endedDuringLaunch : .some(.completed) }
        switch ended {
        case .failed(let error): throw error
        case .some where timedOut: throw ReadinessTimedOut(limit: limit ?? .zero)
        case .some: throw RunEndedBeforeReady(module: module.name)
        case nil: return  // cancelled: the launch is interrupted and says so
        }
    }

    // MARK: Ending

    /// Ends `runs`, given in reverse start order, and waits for them.
    ///
    /// Each `run` is asked to finish (to drain), and waited for, before the
    /// one before it is asked: a server drains while the client it needs
    /// still runs. Past `drainDeadline`, every `run` still running is
    /// cancelled and has until `cancelLimit` after that; the one that held
    /// the drain is named, with the fix (`heldTheDrain`). A second stop
    /// (the calling task's cancellation) ends the drain at once: the
    /// `run`s not yet asked are cancelled without being asked. A run of a module in `notAwaited` is
    /// cancelled but not waited for: it waits for a request of its own.
    ///
    /// One timer for the whole drain, and one for the cancellations after
    /// it: a drain of a thousand `run`s arms two, not a thousand.
    ///
    /// - Returns: the `run`s that did not end cleanly (see ``Ending``),
    ///   each outcome counted from `drainStart`, when the drain's limit
    ///   began (before the intake step).
    static func end(
        _ runs: [ModuleRun], drainStart: MonotonicInstant, drainDeadline: ContinuousClock.Instant, cancelLimit: Duration, notAwaited: [ModuleLife],
        heldTheDrain: @Sendable (ModuleRun) -> Void
    ) async -> Ending {
        var next = runs.startIndex
        var heldBy: ModuleRun?
        var failed: [HookOutcome] = []
        await ShutdownWatch.until(drainDeadline) { watch in
            // The watch is moved to each run before it is asked, in the same
            // round trip that says whether the timer has run out, or the
            // shutdown was cut short (then none is asked).
            while next < runs.endIndex {
                let run = runs[next]
                guard watch.watch(run) else { break }
                if run.isIn(notAwaited) {
                    run.cancel()
                    next += 1
                    continue
                }
                run.module.life.requestDrain()
                let observation = DrainObservation(of: run.module)
                let ended = await run.waitForEnd(watch)
                let failure = ended ? run.failure(since: drainStart) : nil
                observation.end(ended: ended, failure: failure, cutShort: watch.isCutShort)
                guard ended else {
                    if !watch.isCutShort { heldBy = run }
                    return
                }
                if let failure { failed.append(failure) }
                next += 1
            }
        }
        // Past the deadline, or cut short: what still runs is cancelled. A
        // run past the deadline did not end cleanly, asked already or not.
        let late = runs[next...].filter { !$0.isIn(notAwaited) }
        if let heldBy { heldTheDrain(heldBy) }
        // Drained in time: no timer for a cancellation nothing waits for.
        guard !late.isEmpty else { return Ending(drainStart: drainStart, failed: failed) }
        for run in late { run.cancel() }
        return await ShutdownWatch.until(.now + cancelLimit) { watch in
            var ending = Ending(drainStart: drainStart, failed: failed)
            for run in late {
                // Past the limit already, the wait below answers at once.
                watch.watch(run)
                if await !run.waitForEnd(watch) {
                    ending.unended.append(run)
                } else if !watch.isCutShort {
                    ending.timedOut.append(run.outcome(.timedOut, since: drainStart))
                }
            }
            return ending
        }
    }

    /// How the `run`s that did not drain ended.
    struct Ending: Sendable {
        /// When the drain began: what each outcome's duration counts from.
        var drainStart = MonotonicInstant.now
        /// Failed within the drain.
        var failed: [HookOutcome] = []
        /// Drained past the deadline, then ended once cancelled.
        var timedOut: [HookOutcome] = []
        /// Not ended when the host stopped waiting for them.
        var unended: [ModuleRun] = []

        /// The `run`s that did not end cleanly: those that failed within
        /// the drain, those past the deadline, and those still running
        /// now, cut off. Asked once the stop hooks have
        /// run (or been skipped): a `run` that ended in the meantime, as
        /// one cancelled by a second stop does at once, is no outcome of
        /// its own.
        func outcomes() -> [HookOutcome] {
            failed + timedOut + unended.filter { !$0.hasEnded }.map { $0.outcome(.cutOff, since: drainStart) }
        }
    }

    /// How a `run` that ended within its drain ended: failed if it threw,
    /// completed if it returned or gave way to its cancellation.
    func drainedOutcome(since drainStart: MonotonicInstant) -> HookOutcome {
        outcome(withState { $0.result } ?? .completed, since: drainStart)
    }

    var hasEnded: Bool {
        withState { $0.ended }
    }

    /// How it failed, if it failed once asked to drain: counted from the
    /// drain's start. One that failed before stopped the host, which
    /// reported it then.
    private func failure(since drainStart: MonotonicInstant) -> HookOutcome? {
        let (result, end) = withState { ($0.result, $0.endInDrain) }
        guard case .failed? = result, let end else { return nil }
        return outcome(result!, since: drainStart, to: end)
    }

    private func outcome(_ result: HookOutcome.Result, since start: MonotonicInstant, to end: MonotonicInstant = .now) -> HookOutcome {
        var outcome = HookOutcome(module: module.name, phase: .run, result: result, duration: start.duration(to: end), start: start)
        outcome.countsFromDrain = true
        return outcome
    }

    private func isIn(_ modules: [ModuleLife]) -> Bool {
        modules.contains { $0 === module.life }
    }

    /// Whether the `run` has ended before `watch` expired (its timer, or a
    /// second stop). The caller has made it the run `watch` watches.
    fileprivate func waitForEnd(_ watch: ShutdownWatch) async -> Bool {
        await suspend { (continuation: Waiter<Bool>) in
            let now = withState { state -> Bool? in
                if state.ended { return true }
                if watch.isExpired { return false }
                state.waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

extension ModuleRun: WatchedWait {
    /// Wakes the wait for this `run`: its timer ran out.
    func wake() {
        withState { state -> Waiter<Bool>? in
            defer { state.waiter = nil }
            return state.waiter
        }?.resume(returning: false)
    }
}

/// A run's fields, in the header, and the mutex that guards its state, in
/// the tail.
private final class RunStorage: ManagedBuffer<ModuleRun.Fields, pthread_mutex_t> {
    static func make(_ fields: ModuleRun.Fields) -> RunStorage {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { _ = PthreadMutex(in: $0) }
            return fields
        }
        return unsafeDowncast(buffer, to: RunStorage.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
    }
}

/// A `run` that was to report it is ready returned before it did.
struct RunEndedBeforeReady: Error, CustomStringConvertible {
    let module: String
    var description: String {
        "its run returned before it reported it is ready (call context.reportReady() once it is, or remove `var runReportsReady: Bool { true }`)"
    }
}

/// A `run` that was to report it is ready did not within its limit.
struct ReadinessTimedOut: Error, CustomStringConvertible {
    let limit: Duration
    /// The setting that gave the limit.
    var setting = "readinessTimeLimit"
    var description: String {
        "its run did not report it is ready within \(limit) (HostConfiguration.\(setting)): it was ended with the launch. "
            + "Call context.reportReady() once it serves, raise the limit, or remove `var runReportsReady: Bool { true }`"
    }
}
