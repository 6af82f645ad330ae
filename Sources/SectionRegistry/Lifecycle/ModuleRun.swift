
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
final class ModuleRun: Sendable {
    let module: HostedModule
    private let task: Task<Void, Never>
    private let state: Locked<State>
    private let start: MonotonicInstant

    private struct State {
        var ended = false
        /// Set by a second stop: nobody waits for it any more.
        var cutOff = false
        var waiter: Waiter<Void>?
        /// Whether the launch that began it has finished: then a failure
        /// stops the host.
        var joined = false
        /// A failure (or a return) while the launch still went on.
        var endedDuringLaunch: HookOutcome.Result?
    }

    /// Starts `module`'s `run`, in a task that carries `origin` (so that
    /// the host knows a request from it), through `bridge` (which may run it
    /// inside another library's shutdown context); `failed` is called if it
    /// throws while not cancelled, once it is joined.
    init(
        _ module: HostedModule, origin: RequestOrigin,
        bridge: @escaping @Sendable (ModuleLife, @escaping @Sendable () async throws -> Void) async throws -> Void,
        failed: @escaping @Sendable (HookOutcome) -> Void
    ) {
        let state = Locked(State())
        let start = MonotonicInstant.now
        self.module = module
        self.state = state
        self.start = start
        task = Task {
            let result: HookOutcome.Result? = await RequestOrigin.$current.withValue(origin) {
                do {
                    // Only a run that says it drains sees the request as
                    // another library's graceful shutdown: the others pay
                    // nothing, and end by cancellation as they were written to.
                    if module.instance.runDrains {
                        try await bridge(module.life) { try await module.run(.run) }
                    } else {
                        try await module.run(.run)
                    }
                    return .completed
                } catch where !Task.isCancelled {
                    return .failed(error)
                } catch {
                    return nil  // it gave way to its cancellation: that is how a run ends
                }
            }
            let (waiter, joined) = state.withLock { state in
                state.ended = true
                if !state.joined { state.endedDuringLaunch = result }
                defer { state.waiter = nil }
                return (state.waiter, state.joined)
            }
            module.life.endReadinessWait()
            waiter?.resume()
            if joined, case .failed = result {
                failed(HookOutcome(module: module.name, phase: .run, result: result!, duration: start.duration(to: .now), start: start))
            }
        }
    }

    /// The launch that began it has finished: from now on a failure stops
    /// the host.
    ///
    /// - Returns: how it ended if it ended while the launch went on: a
    ///   failure, or a return (`.completed`) of a `run` that was to report
    ///   it is ready and never did.
    func join() -> HookOutcome.Result? {
        state.withLock { state in
            state.joined = true
            return state.endedDuringLaunch
        }
    }

    /// Waits until the `run` reports it is ready (its module's
    /// ``AppModule/runReportsReady``), or ends; the caller's cancellation
    /// ends the wait too.
    ///
    /// - Throws: what it threw if it failed first, or
    ///   ``RunEndedBeforeReady`` if it returned first.
    func ready() async throws {
        await module.life.ready()
        guard !module.life.isReady else { return }
        let ended = state.withLock { $0.endedDuringLaunch }
        switch ended {
        case .failed(let error): throw error
        case .some: throw RunEndedBeforeReady(module: module.name)
        case nil: return  // cancelled: the launch is interrupted and says so
        }
    }

    // MARK: Ending

    /// Stops waiting for this `run`: a second stop.
    func cutOff() {
        state.withLock { state -> Waiter<Void>? in
            state.cutOff = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Ends `runs`, given in reverse start order, and waits for them.
    ///
    /// Each `run` that drains (``AppModule/runDrains``, or it looked for the
    /// request: ``ModuleLife/observesDrain``) is asked to finish, and waited for,
    /// before the one before it is asked: a server drains while the client
    /// it needs still runs. A `run` that does not watch is cancelled in its
    /// turn: cancellation is how it was written to end. Past
    /// `drainDeadline`, every `run` still running is cancelled and has until
    /// `cancelLimit` after that. A run of a module in `notAwaited` is
    /// cancelled but not waited for: it waits for a request of its own.
    ///
    /// - Returns: the `run`s that did not end cleanly: drained past the
    ///   deadline and cancelled (``HookOutcome/Result/timedOut``, timed from
    ///   the start of the drain), or never ended at all
    ///   (``HookOutcome/Result/cutOff``). A run cancelled by a second stop
    ///   that ended then is no outcome of its own: the stop hooks that stop
    ///   skips say the shutdown was cut short.
    static func end(
        _ runs: [ModuleRun], drainDeadline: ContinuousClock.Instant, cancelLimit: Duration, notAwaited: [ModuleLife]
    ) async -> [HookOutcome] {
        let drainStart = MonotonicInstant.now
        var outcomes: [HookOutcome] = []
        var drainedTooLong: [ModuleRun] = []
        var remaining = runs[...]
        while let run = remaining.first, ContinuousClock.now < drainDeadline, !run.isCutOff {
            remaining = remaining.dropFirst()
            if run.isIn(notAwaited) {
                run.task.cancel()
            } else if run.drains {
                run.module.life.requestDrain()
                if await !run.waitForEnd(until: drainDeadline) { drainedTooLong.append(run) }
            } else {
                run.task.cancel()
                if await !run.waitForEnd(until: .now + cancelLimit) { outcomes.append(run.outcome(.cutOff, since: run.start)) }
            }
        }
        // Past the deadline, or cut short: what still runs is cancelled. A
        // run that watches for the drain and had to be cancelled did not
        // end cleanly, asked already or not.
        let unasked = remaining.filter { !$0.isIn(notAwaited) }
        drainedTooLong += unasked.filter(\.drains)
        let late = drainedTooLong + unasked.filter { !$0.drains }
        for run in late { run.task.cancel() }
        let cancelDeadline = ContinuousClock.now + cancelLimit
        for run in late {
            if await !run.waitForEnd(until: cancelDeadline) {
                outcomes.append(run.outcome(.cutOff, since: run.start))
            } else if !run.isCutOff, drainedTooLong.contains(where: { $0 === run }) {
                outcomes.append(run.outcome(.timedOut, since: drainStart))
            }
        }
        return outcomes
    }

    private func outcome(_ result: HookOutcome.Result, since start: MonotonicInstant) -> HookOutcome {
        HookOutcome(module: module.name, phase: .run, result: result, duration: start.duration(to: .now), start: start)
    }

    /// Whether it is asked to drain rather than cancelled: its module says
    /// it drains, or it looked for the request.
    private var drains: Bool {
        module.instance.runDrains || module.life.observesDrain
    }

    private func isIn(_ modules: [ModuleLife]) -> Bool {
        modules.contains { $0 === module.life }
    }

    private var isCutOff: Bool {
        state.withLock { $0.cutOff }
    }

    /// Whether the `run` has ended by `deadline`; `false` at once once cut off.
    private func waitForEnd(until deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                self.state.withLock { state -> Waiter<Void>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }?.resume()
            }
            await suspend { (continuation: Waiter<Void>) in
                let now = state.withLock { state -> Bool in
                    guard !state.ended, !state.cutOff, ContinuousClock.now < deadline else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            group.cancelAll()
        }
        return state.withLock { $0.ended }
    }
}

/// A `run` that was to report it is ready returned before it did.
struct RunEndedBeforeReady: Error, CustomStringConvertible {
    let module: String
    var description: String {
        "its run returned before it reported it is ready (call context.reportReady() once it is, or make runReportsReady false)"
    }
}
