// The host's shutdown, in one place.
//
// SIGTERM to exit, in the order it happens, file by file:
//
// 0. Process/SignalStream.swift: the handler only writes the signal's
//    number to a pipe; Process/ModuleHost+Run.swift: `run()`'s signal loop
//    (`answer`) reads it and calls `requestStop(.signal)`, here.
// 1. `requestStop`: the one entry of every stop, whatever the reason (a
//    signal, `terminate()`, a `run` that failed, a module's
//    `requestShutdown()`, the cancellation of the task running `run()`, a
//    ServiceGroup's graceful shutdown, a command's end). The first moves
//    the host's `ShutdownStage` (Lifecycle/ShutdownStage.swift) from ready
//    to shutting down, which is also what withdraws its readiness; the
//    launch, load or reload under way is interrupted (its running hook
//    cancelled; it rolls back what it started) and the terminate request
//    is queued (Host/HostRequests.swift).
// 2. The engine (Host/ModuleHost.swift) performs it in its turn:
//    `terminateNow`, the shutdown's steps top to bottom, each a plain await
//    (under the `Tracing` trait, in the shutdown's span and each step in one
//    of its own: Host/ModuleHost+Spans.swift, a plain call without it):
//    - the command's work ends, if the host runs one (`main { }`);
//    - the lame-duck step (`serveAsLameDuck`): the delay, and the waits of
//      the servers whose balancers probe them (`ModuleLife.withLameDuckWait`);
//    - the intake step (`stopIntake`): every `run` with an `onIntakeStop`
//      handler stops its intake, all at once, waited for;
//    - the drain (`endRuns`, then `ModuleRun.end` in
//      Lifecycle/ModuleRun.swift): each `run` is asked to finish, and waited
//      for, before the one started before it is asked; the intake step and
//      the drain within one `drainTimeLimit`, then what still runs is
//      cancelled and given `stopTimeLimit`;
//    - the stop hooks (a `PhaseRun`, Lifecycle/PhaseRun.swift), in reverse
//      start order, each module forgotten first;
//    - the report: `stopped` is published, with what did not end cleanly.
// 3. A second stop (a second SIGTERM or SIGINT, the cancellation of the
//    task running `run()` during the shutdown, a tool's second Ctrl-C) is
//    `ShutdownStage.cutShort()`: the stage becomes cut short and the
//    engine's task is cancelled. The waits give up at two cancellation
//    handlers: `ShutdownWatch.until` (Lifecycle/ShutdownWatch.swift: the
//    work, the intake, the drain) and `PhaseRun.execute` (the hooks: the
//    one running is cut off, the rest skipped); `Task.sleep` ends the lame
//    duck by itself. Four places in all, with `requestStop`'s.
// 4. Process/HostMain.swift: `main()` reads the final status and exits with
//    the status `ExitStatus` (Process/ExitStatus.swift) gives, the one
//    policy of every entry point.
//
// Lifecycle.md's "Shutdown" tells the same sequence to users, and
// ShutdownWalkthroughTests runs it and compares. A new step is one line in
// `terminateNow`, and a wait that takes its cancellation as giving up.
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
    /// ``AppModule/run(_:)``), then forgets the modules and calls their stop
    /// hooks in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit`` (10 seconds by default; past it
    /// the hook is cancelled and shutdown goes on).
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
    /// A call while a shutdown is under way does not cut it short: it
    /// waits for the same shutdown. What cuts it short is a second SIGTERM
    /// or SIGINT, or the cancellation of the task running ``run()``
    /// (<doc:Lifecycle#Cutting-a-shutdown-short>). If the calling task is
    /// cancelled, this stops waiting and returns what it knows (nothing);
    /// the shutdown goes on.
    ///
    /// - Returns: how each module's stop hook ended, in the order called,
    ///   and each `run` that did not drain cleanly (what an interrupted
    ///   launch stopped, if this call interrupted it): only hooks the
    ///   modules write, so a module with neither has none. To the
    ///   call that began the shutdown; a later call returns once it is done,
    ///   with nothing.
    @discardableResult
    public func terminate() async -> [HookOutcome] {
        let caller = requests.callingRun?.moduleName
        let fromModule = requests.calledFromInside
        let began = requestStop(fromModule ? .moduleRequest(caller) : .terminate)
        guard !fromModule else { return [] }
        _ = await waitUntilFinalOrCancelled()
        return began && status.isFinal ? shutdownOutcomes : []
    }

    /// The one entry of every stop. The first begins the shutdown for
    /// `reason`; a later one that escalates (``StopReason/escalates``: a
    /// signal, a cancellation) cuts it short, once.
    ///
    /// - Returns: whether this call began the shutdown.
    @discardableResult
    nonisolated func requestStop(_ reason: StopReason) -> Bool {
        let stage = shared.shutdown
        guard stage.begin(reason) else {
            if reason.escalates {
                stage.cutShort {
                    shared.log(.warning, "SectionRegistry: second \(reason), cutting shutdown short: what still runs is cut off, the stop hooks left are skipped")
                }
            }
            return false
        }
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
        #if Tracing
        shared.spans.beginShutdown(reason)
        #endif
        #if Metrics
        shared.metrics.shutdown(reason)
        #endif
        requests.interruptBringUp()
        submit(requests.makeID(), .terminate) { host in await host.withShutdownSpan { await host.terminateNow() } }
        return true
    }

    /// A module's `run` failed: the host shuts down. The error is logged
    /// here, once; the last line of the shutdown names the module only.
    nonisolated func runFailed(_ outcome: HookOutcome) {
        failedRuns.withLock { $0.append(outcome) }
        #if Metrics
        shared.metrics.hook(outcome.module, .run, outcome: "failed", nanoseconds: nil)
        #endif
        shared.log(.error, "SectionRegistry: module '\(outcome.module)' failed in run, stopping every module: \(outcome.resultDetail)",
                   module: outcome.module, phase: .run, duration: outcome.duration)
        requestStop(.runFailed(outcome.module))
    }

    /// The shutdown's steps, top to bottom, in the engine's task: a second
    /// stop cancels it, and each step's wait gives up. A launch the
    /// shutdown interrupted has stopped what it started already; a host
    /// never launched just stops.
    func terminateNow() async {
        switch lifecycle {
        case .running(let roster):
            enter(.stopping)
            await endCommand()
            await serveAsLameDuck(roster.started)
            let stopped = await stop(reversing: roster.started)
            for plugin in roster.plugins {
                plugin.library.close()
            }
            shutdownOutcomes = stopped.outcomes
            stoppedModules = stopped.modules
            let failures = failedRuns.withLock { $0 } + stopped.outcomes.filter { $0.isFailure }
            logShutdown(stopped.modules, failures: failures)
            enter(.stopped(failures: failures))
        case .idle:
            enter(.stopped(failures: []))
        case .launching, .stopping, .stopped, .launchFailed:
            break
        }
    }

    /// The lame-duck step: every module still serves, the host no longer
    /// ready, while a load balancer notices, for
    /// ``HostConfiguration/lameDuckDelay``, and as long as a server among
    /// `modules` waits for the balancers that probe its readiness to have
    /// seen it withdrawn (under the `Hummingbird` trait, `serve(_:health:)`).
    /// They wait side by side, in child tasks: a second stop cancels them,
    /// and the step ends at once.
    private func serveAsLameDuck(_ modules: [HostedModule]) async {
        let delay = configuration.lameDuckDelay
        let waiting = modules.compactMap { module in
            let waits = module.life.takeLameDuckWaits()
            return waits.isEmpty ? nil : (name: module.name, waits: waits)
        }
        guard delay > .zero || !waiting.isEmpty, !Task.isCancelled else { return }
        let delayText = delay > .zero ? "for \(delay) more (lameDuckDelay)" : nil
        let probedText = waiting.isEmpty ? nil
            : "as long as the balancers probing \(waiting.map { "'\($0.name)'" }.joined(separator: ", ")) take to see it not ready"
        shared.log(.info, "SectionRegistry: not ready; serving \([delayText, probedText].compactMap { $0 }.joined(separator: ", and ")) "
            + "before the modules stop their intake")
        await withSpan("lame duck", modules: waiting.map(\.name)) {
            await withTaskGroup(of: Void.self) { group in
                if delay > .zero { group.addTask { try? await Task.sleep(for: delay) } }
                for wait in waiting.flatMap(\.waits) { group.addTask { await wait() } }
            }
        }
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
        guard !stopping.isEmpty, !Task.isCancelled else { return }  // cut short: no intake stop is called
        let step = ShutdownStep(waitingFor: stopping.map(\.name))
        let tasks = stopping.map { module in
            Task {
                await module.life.stopIntake()
                step.done(module.name)
            }
        }
        let late = await withSpan("intake", modules: stopping.map(\.name)) { await ShutdownWatch.until(deadline, step.wait) }
        guard !late.isEmpty else { return }
        for task in tasks { task.cancel() }
        guard !Task.isCancelled else { return }
        shared.log(.warning, "SectionRegistry: the intake of \(late.map { "'\($0)'" }.joined(separator: ", ")) did not stop within the drain limit "
            + "(\(configuration.drainTimeLimit)): cancelled and left behind, and every run is drained now. An onIntakeStop handler returns "
            + "once the module takes no new work; raise HostConfiguration.drainTimeLimit if it needs longer.")
    }

    /// The last line of a shutdown: the modules stopped, or what did not
    /// stop cleanly.
    private func logShutdown(_ modules: [HostedModule], failures: [HookOutcome]) {
        let failed = Set(failures.map(\.module))
        let stopped = { modules.map(\.name).filter { !failed.contains($0) }.joined(separator: ", ") }
        guard !failures.isEmpty else {
            // A program that calls terminate() (a command's end too) says
            // what it likes; a stop it did not ask for is said, as its
            // beginning was.
            let asked = if case .terminate? = stopReason { true } else { false }
            shared.log(asked ? .debug : .info, "SectionRegistry: stopped: \(stopped())")
            return
        }
        // A failed run's error was logged when it failed: named only.
        let problems = failures.map { failure in
            if failure.phase == .run, !failure.countsFromDrain, case .failed = failure.result { return "\(failure.module) run failed (logged above)" }
            return "\(failure.module) \(failure.phase) \(failure.resultDetail)"
        }.joined(separator: "; ")
        shared.log(.error, "SectionRegistry: stopped with \(failures.count) \(failures.count == 1 ? "failure" : "failures"): \(problems) (stopped cleanly: \(stopped().isEmpty ? "none" : stopped()))")
    }

    /// Stops `started`, given in start order, in reverse order: ends their
    /// `run`s, then forgets each and calls its stop hook.
    func stop(reversing started: [HostedModule]) async -> StopReport {
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
        #if Metrics
        shared.metrics.stopped(modules.count)
        #endif
        let runOutcomes = runs.outcomes(), hookOutcomes = Self.outcomes(of: phase, records)
        // Usually no run ended badly: the hooks' list as it is, not copied.
        return StopReport(modules: modules, outcomes: runOutcomes.isEmpty ? hookOutcomes : runOutcomes + hookOutcomes)
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
        let start = MonotonicInstant.now  // what an outcome's duration counts from
        let deadline = ContinuousClock.now + limit  // the intake and the drain together
        for run in ending { run.module.life.drainDeadline = deadline }
        await stopIntake(of: ending.map { $0.module }, until: deadline)
        requests.waitsFor(endingRuns: ending)
        return await ModuleRun.end(ending, drainStart: start, drainDeadline: deadline, cancelLimit: configuration.stopTimeLimit,
                                   notAwaited: requests.waitingRuns) { [shared] run in
            let name = run.module.name
            let consequence = alone ? "it is cancelled" : "it and every run not yet drained are cancelled, and the shutdown is not clean"
            switch run.module.life.cancelledWork {
            case .running:
                // It said it ends by cancellation: the fix is in its loop.
                shared.log(.warning, "SectionRegistry: module '\(name)' did not finish its run within the drain limit (\(limit)): "
                    + "context.cancelOnDrain cancelled its work when asked, and the work did not end: it swallows its cancellation "
                    + "(a loop with `try? await Task.sleep(...)` spins instead of ending): \(consequence). "
                    + "Let the CancellationError out (`try await`), or check Task.isCancelled.", module: name)
                return
            case .ended:
                shared.log(.warning, "SectionRegistry: module '\(name)' did not finish its run within the drain limit (\(limit)): "
                    + "the work context.cancelOnDrain cancelled ended, and what the run does after it did not: \(consequence). "
                    + "Make what follows cancelOnDrain end within the limit, or raise HostConfiguration.drainTimeLimit.", module: name)
                return
            case .none:
                break
            }
            shared.log(.warning, "SectionRegistry: module '\(name)' did not finish its run within the drain limit (\(limit)) "
                + "after it was asked to: \(consequence). A run that ends by "
                + "cancellation says so: `try await context.cancelOnDrain { ... }`; one that serves returns once asked "
                + "(context.withDrainHandler, or its library's graceful shutdown under the ServiceLifecycle trait). Or raise "
                + "HostConfiguration.drainTimeLimit.", module: name)
        }
    }
}

/// What stopping some modules did: every module stopped, in the order
/// stopped, whatever hooks it writes; and the outcomes of the hooks and
/// `run`s it writes that did not end cleanly or were called (a hook a
/// module does not write has none).
struct StopReport: Sendable {
    let modules: [HostedModule]
    let outcomes: [HookOutcome]

    /// The modules stopped, by name, in the order stopped.
    var names: [String] { modules.map(\.name) }
}
