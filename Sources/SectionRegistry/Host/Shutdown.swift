// The host's shutdown, in one place.
//
// SIGTERM to exit, in the order it happens. Every step below but the
// first and the last is in this file, and so is the shutdown state
// (`HostRequests.Shutdown`, at the end).
//
// 0. SIGTERM reaches `SignalStream`'s handler (Process/SignalStream.swift),
//    which only writes the signal's number to a pipe; `ModuleHost.run()`'s
//    signal loop (`answer`, Process/ModuleHost+Run.swift) reads it and calls
//    `stop(bySignal:)`, here.
// 1. `beginShutdown(.signal)`: the one entry, whatever the reason (a
//    signal, `terminate()`, a `run` that failed, a module's
//    `requestShutdown()`, the cancellation of the task running the host, a
//    ServiceGroup's graceful shutdown). `HostRequests.requestStop` moves the
//    shutdown state from `none` to `requested` (a later stop finds it moved
//    and cuts the shutdown short instead, step 5): the launch, load or
//    reload under way is interrupted, its running hook cancelled, and it
//    rolls back what it started; no bring-up begins after.
//    The host's readiness (`isReady`) turns false at once.
// 2. A terminate request is queued. In its turn, `terminateNow` publishes
//    `stopping`, serves as a lame duck for `lameDuckDelay` (`serveAsLameDuck`),
//    then `stop` takes every started module, in reverse start order.
// 3. The intake step (`stopIntake`): every `run` with an `onIntakeStop`
//    handler stops its intake, all at once, waited for. Then the drain
//    (`endRuns`, then `ModuleRun.end` in Lifecycle/ModuleRun.swift): each
//    `run` is asked to finish, and waited for, before the one started
//    before it is asked, the intake step and the drain within one
//    `drainTimeLimit`; past it, what still runs is named in a warning,
//    cancelled, and given `stopTimeLimit`. A request a draining `run` makes
//    meanwhile is refused at once (`HostRequests.submit`): it would wait
//    for itself.
// 4. Each module is forgotten (its life ends: no handler of it is called
//    again, nothing it registers is accepted) and its stop hook called, in
//    reverse start order, each within `stopTimeLimit`. `stopped` is
//    published, with what did not end cleanly, and `run()` returns.
// 5. A second SIGTERM or SIGINT, or the cancellation of the task running
//    `run()` during the shutdown, calls `cutShutdownShort`: the state
//    becomes `cutShort`, the lame-duck delay or the intake step under way
//    ends (no intake stop is called after), the `run`s not yet asked are
//    cancelled without
//    being asked, whatever the shutdown waits for (`run`s, or a stop hook)
//    is given up at once, and the stop hooks not yet called are skipped.
// 6. `ModuleHost.main` (Process/HostMain.swift) reads the final status and
//    exits: 0 stopped cleanly, 3 not cleanly (a `run` past the drain limit,
//    a stop hook that failed or was cut off), 1 a failed launch or `run`.
//    `main { work }` (Process/ModuleHost+Command.swift) exits 128 + the
//    signal's number instead, as a command-line tool does.
//
// Lifecycle.md's "Shutdown" tells the same sequence to users, and
// ShutdownWalkthroughTests runs it and compares.
//
// Words, used with these meanings only:
// - drain (a `run`): ask it to finish its work and return; it hears it
//   through `withDrainHandler`, `cancelOnDrain`, or as graceful shutdown.
// - stop (a module): drain its `run`, forget it, call its stop hook.
// - shutdown: stopping every module, once, for the host's life.
// - interrupt: what a shutdown does to a bring-up (launch, load, reload).
// - roll back: stop what an interrupted or failed bring-up started.
// - cut short: a second stop; cut off: a hook or `run` the host stopped
//   waiting for; skipped: a stop hook never called.
// - forget: end a module's life and drop what it registered.

extension ModuleHost {
    /// Stops every running module: withdraws the host's readiness at once
    /// (``isReady``), serves on for ``HostConfiguration/lameDuckDelay``
    /// (zero by default), stops every `run`'s intake (its `onIntakeStop`
    /// handler, all at once), drains every `run` in reverse start order
    /// (each asked to finish and waited for; the intake and the drain
    /// within one ``HostConfiguration/drainTimeLimit``; see
    /// ``AppModule/run(_:)``), then calls the stop hooks in reverse start
    /// order, each within
    /// ``HostConfiguration/stopTimeLimit`` (10 seconds by default; past it
    /// the hook is cancelled and shutdown goes on), and forgets the modules.
    ///
    /// A launch, load or reload under way is interrupted first (the launch
    /// or load fails with ``HostError/Code/cancelled`` and stops what it
    /// started); a removal or unload under way is waited for. Called before
    /// ``launch()``, the host stops without launching: its status is final.
    ///
    /// **From a module** (one of its hooks, its `run`, or a handler either
    /// calls), the shutdown begins and this returns at once, with no
    /// outcomes: the shutdown waits for that very hook or `run` to end. So
    /// an admin endpoint or a worker that hits a fatal condition calls it
    /// and returns; under ``main(configuration:)`` the process exits 0 once
    /// every module stopped cleanly.
    ///
    /// If the calling task is cancelled, this stops waiting and returns what
    /// it knows (nothing); the shutdown goes on. Only a second SIGTERM or
    /// SIGINT cuts it short.
    ///
    /// - Returns: how each module stopped, in the order stopped (what an
    ///   interrupted launch stopped, if this call interrupted it), to the
    ///   call that began the shutdown; a later call returns once it is done,
    ///   with nothing.
    @discardableResult
    public func terminate() async -> [HookOutcome] {
        let caller = requests.callingRun?.moduleName
        let fromModule = requests.calledFromInside
        let began = beginShutdown(fromModule ? .moduleRequest(caller) : .terminate)
        guard !fromModule else { return [] }
        _ = await waitUntilFinalOrCancelled()
        return began && status.isFinal ? shutdownOutcomes : []
    }

    /// SIGTERM or SIGINT, served: the first begins the shutdown, a second
    /// cuts it short.
    nonisolated func stop(bySignal signal: Int32) {
        if !beginShutdown(.signal(signal)) { cutShutdownShort(.signal(signal)) }
    }

    /// The one entry of every shutdown: asks the host to stop for `reason`,
    /// once; the first call queues the terminate that stops the modules.
    ///
    /// - Returns: whether this call began the shutdown.
    @discardableResult
    nonisolated func beginShutdown(_ reason: StopReason) -> Bool {
        let first = requests.requestStop(reason) {
            switch reason {
            case .terminate:
                // The program asked: it knows, and says what it likes.
                shared.log(.debug, "SectionRegistry: terminate(), stopping modules in reverse start order")
            case .runFailed:
                break  // runFailed said it, with the error
            case .signal, .moduleRequest, .cancelled, .gracefulShutdown:
                // Notice, not info: a command-line tool's default level
                // (``ModuleHost/main(configuration:_:)``) leaves it out.
                shared.log(.notice, "SectionRegistry: \(reason), stopping modules in reverse start order")
            }
        }
        guard first else { return false }
        shared.shutdownBegun.store(true, ordering: .releasing)
        shared.isReady.store(false, ordering: .releasing)  // a readiness probe says 503 from now on
        submit(requests.makeID(), .terminate) { host in await host.terminateNow() }
        return true
    }

    /// A second stop: every wait left in the shutdown ends at once (the
    /// `run`s not yet ended and the stop hook running are cut off), and the
    /// stop hooks not yet called are skipped.
    nonisolated func cutShutdownShort(_ reason: StopReason) {
        shared.log(.warning, "SectionRegistry: second \(reason), cutting shutdown short: what still runs is cut off, the stop hooks left are skipped")
        requests.cutShort(reason)
    }

    /// A module's `run` failed: the host shuts down. The error is logged
    /// here, once; the last line of the shutdown names the module only.
    nonisolated func runFailed(_ outcome: HookOutcome) {
        failedRuns.withLock { $0.append(outcome) }
        shared.log(.error, "SectionRegistry: module '\(outcome.module)' failed in run, stopping every module: \(outcome.resultDetail)",
                   module: outcome.module, phase: .run, duration: outcome.duration)
        beginShutdown(.runFailed(outcome.module))
    }

    /// The terminate request, in its turn: stops every started module and
    /// publishes the final status. A launch the shutdown interrupted has
    /// stopped what it started already; a host never launched just stops.
    func terminateNow() async {
        switch lifecycle {
        case .running(let roster):
            enter(.stopping(requests.shutdown.reason ?? .terminate))
            await serveAsLameDuck()
            let outcomes = await stop(reversing: roster.started)
            for plugin in roster.plugins {
                plugin.library.close()
            }
            shutdownOutcomes = outcomes
            let failures = failedRuns.withLock { $0 } + outcomes.filter { $0.isFailure }
            logShutdown(outcomes, failures: failures)
            enter(.stopped(failures: failures))
        case .idle:
            enter(.stopped(failures: []))
        case .launching, .stopping, .stopped, .launchFailed:
            break
        }
    }

    /// The lame-duck delay (``HostConfiguration/lameDuckDelay``): every
    /// module still serves, the host no longer ready, while a load balancer
    /// notices; a second stop ends it at once.
    private func serveAsLameDuck() async {
        let delay = configuration.lameDuckDelay
        guard delay > .zero else { return }
        shared.log(.info, "SectionRegistry: not ready; serving for \(delay) more (lameDuckDelay) before the modules stop their intake")
        let step = ShutdownStep(waitingFor: ["the lame-duck delay"])
        requests.waitsFor(step: step)
        _ = await step.wait(until: .now + delay)
    }

    /// The intake step: every module among `modules` whose `run` takes work
    /// from outside (``ModuleContext/withDrainHandler(isolation:_:onIntakeStop:onDrain:)``)
    /// stops its intake, all at once, and the host waits for all of them
    /// until `deadline` (the drain's): no new work arrives anywhere before
    /// any `run` drains. One that has not returned by then is cancelled,
    /// left behind and named in a warning; a second stop ends the wait at
    /// once.
    ///
    /// Each stop runs in a task of its own, not a child task, for the
    /// reason ``PhaseRun`` gives: one that ignores its cancellation must be
    /// left behind, so that the shutdown still ends.
    private func stopIntake(of modules: [HostedModule], until deadline: ContinuousClock.Instant) async {
        let stopping = modules.filter { $0.life.hasIntakeStop }
        guard !stopping.isEmpty, !requests.shutdown.isCutShort else { return }  // cut short: no intake stop is called
        let step = ShutdownStep(waitingFor: stopping.map(\.name))
        requests.waitsFor(step: step)
        let tasks = stopping.map { module in
            Task {
                await module.life.stopIntake()
                step.done(module.name)
            }
        }
        let late = await step.wait(until: deadline)
        guard !late.isEmpty else { return }
        for task in tasks { task.cancel() }
        guard !requests.shutdown.isCutShort else { return }
        shared.log(.warning, "SectionRegistry: the intake of \(late.map { "'\($0)'" }.joined(separator: ", ")) did not stop within the drain limit "
            + "(\(configuration.drainTimeLimit)): cancelled and left behind, and every run is drained now. An onIntakeStop handler returns "
            + "once the module takes no new work; raise HostConfiguration.drainTimeLimit if it needs longer.")
    }

    /// The last line of a shutdown: the modules stopped, or what did not
    /// stop cleanly.
    private func logShutdown(_ outcomes: [HookOutcome], failures: [HookOutcome]) {
        let failed = Set(failures.map(\.module))
        let stopped = { outcomes.filter { $0.phase == .stop && !$0.isFailure && !failed.contains($0.module) }.map(\.module).joined(separator: ", ") }
        guard !failures.isEmpty else {
            // ModuleHost.main says it at info; an app that terminates its
            // host itself says what it likes.
            shared.log(.debug, "SectionRegistry: stopped: \(stopped())")
            return
        }
        // A failed run's error was logged when it failed: named only.
        let problems = failures.map { failure in
            if failure.phase == .run, case .failed = failure.result { return "\(failure.module) run failed (logged above)" }
            return "\(failure.module) \(failure.phase) \(failure.resultDetail)"
        }.joined(separator: "; ")
        shared.log(.error, "SectionRegistry: stopped with \(failures.count) \(failures.count == 1 ? "failure" : "failures"): \(problems) (stopped cleanly: \(stopped().isEmpty ? "none" : stopped()))")
    }

    /// Stops `started`, given in start order, in reverse order: ends their
    /// `run`s, then forgets each and calls its stop hook.
    func stop(reversing started: [HostedModule]) async -> [HookOutcome] {
        // An array made from the reversed view: `reversed()` where an array
        // is expected is Sequence's, which copied every module and then
        // reversed the copy in place.
        let modules = Array(started.reversed())
        let runs = await endRuns(of: modules)
        let phase = PhaseRun(.stop, of: modules, limit: configuration.stopTimeLimit, grace: configuration.stopTimeLimit,
                             stopsAtFailure: false) { [shared] in shared.forget($0.life) }
        let records = await runPhase(phase)
        for (module, record) in zip(modules, records.hooks) where !record.ended {
            shared.forget(module.life)  // skipped: not forgotten by the runner
        }
        let runOutcomes = runs.outcomes(), hookOutcomes = Self.outcomes(of: phase, records)
        // Usually no run ended badly: the hooks' list as it is, not copied.
        return runOutcomes.isEmpty ? hookOutcomes : runOutcomes + hookOutcomes
    }

    /// Ends the `run`s of `modules` (given in the order they stop: reverse
    /// start order) and waits for them: drained one after the other within
    /// one ``HostConfiguration/drainTimeLimit``, then cancelled within
    /// ``HostConfiguration/stopTimeLimit``; a second stop ends the wait at
    /// once. A `run` that waits for a request (this one, or one queued) is
    /// cancelled but not waited for: it cannot return before its answer.
    ///
    /// `alone`: only these `run`s end, the host goes on (a test's drain of
    /// one): the warning for one that holds the drain says so.
    ///
    /// - Returns: how the `run`s that did not end cleanly ended.
    func endRuns(of modules: [HostedModule], alone: Bool = false) async -> ModuleRun.Ending {
        // Modules without a `run`: no index of them to make.
        guard runs.withLock({ !$0.isEmpty }) else { return ModuleRun.Ending() }
        let order = RosterIndex(modules)
        // Each run put at its module's place in `modules`: no sort.
        var placed = [ModuleRun?](repeating: nil, count: modules.count)
        runs.withLock { runs in
            runs.removeAll { run in
                guard let index = order.index(of: run) else { return false }
                placed[index] = run
                return true
            }
        }
        let ending = placed.compactMap { $0 }
        guard !ending.isEmpty else { return ModuleRun.Ending() }
        let limit = configuration.drainTimeLimit
        let deadline = ContinuousClock.now + limit  // the intake and the drain together
        await stopIntake(of: ending.map { $0.module }, until: deadline)
        requests.waitsFor(endingRuns: ending)
        return await ModuleRun.end(ending, drainDeadline: deadline, cancelLimit: configuration.stopTimeLimit,
                                   notAwaited: requests.waitingRuns, isCutShort: { [requests] in requests.isCutShort }) { [shared] run in
            let name = run.module.name
            let consequence = alone ? "it is cancelled" : "it and every run not yet drained are cancelled, and the shutdown is not clean"
            if run.module.life.workCancelledOnDrain {
                // It said it ends by cancellation: the fix is in its loop.
                shared.log(.warning, "SectionRegistry: module '\(name)' did not finish its run within the drain limit (\(limit)): "
                    + "context.cancelOnDrain cancelled its work when asked, and the work did not end: it swallows its cancellation "
                    + "(a loop with `try? await Task.sleep(...)` spins instead of ending): \(consequence). "
                    + "Let the CancellationError out (`try await`), or check Task.isCancelled.", module: name)
                return
            }
            shared.log(.warning, "SectionRegistry: module '\(name)' did not finish its run within the drain limit (\(limit)) "
                + "after it was asked to: \(consequence). A run that ends by "
                + "cancellation says so: `try await context.cancelOnDrain { ... }`; one that serves returns once asked "
                + "(context.withDrainHandler, or its library's graceful shutdown under the ServiceLifecycle trait). Or raise "
                + "HostConfiguration.drainTimeLimit.", module: name)
        }
    }
}

extension HostRequests {
    /// The host's shutdown, in one value: each stop of the host moves it on,
    /// never back.
    enum Shutdown: Sendable {
        case none
        /// A stop was asked for (the first): bring-ups are interrupted, none
        /// begins, and the engine's next terminate stops every module.
        case requested(StopReason)
        /// A second stop: every wait left ends at once. The reason is still
        /// the first stop's.
        case cutShort(StopReason)
    }
}

extension HostRequests.Shutdown {
    /// Whether a stop was asked for.
    var begun: Bool {
        if case .none = self { false } else { true }
    }

    /// Why the host stops: the first stop's reason.
    var reason: StopReason? {
        switch self {
        case .none: nil
        case .requested(let reason), .cutShort(let reason): reason
        }
    }

    var isCutShort: Bool {
        if case .cutShort = self { true } else { false }
    }
}
