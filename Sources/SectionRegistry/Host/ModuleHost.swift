/// Runs the modules of a registry: launches them in dependency order, runs
/// their long-running work, dispatches events to them, and stops them in
/// reverse order.
///
/// ```swift
/// let host = ModuleHost(registry: try ModuleRegistry.linked())
/// try await host.run()      // launch, then serve until SIGTERM, SIGINT or cancellation
/// ```
///
/// One host launches once. **Every request that changes the modules**
/// (``launch()``, ``load(plugin:)``, ``unload(plugin:)``, ``remove(_:)``,
/// ``reload()``, ``terminate()``) **takes its turn**: the host performs them
/// one at a time, to the end, in the order asked, so none sees another half
/// done. A stop does not wait for its turn to act: ``terminate()`` (or a
/// signal, or cancellation) interrupts the launch, load or reload under
/// way, whose running hook is cancelled, and then stops what started.
///
/// **Modules may ask too**, from any hook, `run` or handler, and none of
/// their requests waits for itself: ``terminate()`` from a module begins
/// the shutdown and returns at once; a request from a hook of the request
/// under way (a `load(plugin:)` from a start hook) is refused at once with
/// ``HostError/Code/calledFromHook``; a request from a `run` never waits for
/// that `run` to end (`remove(self)` from a `run` ends it and stops its
/// module).
///
/// For any interleaving of requests:
///
/// - a module starts only after every module it comes after has started;
/// - each module that started is stopped once, in reverse start order, or
///   reported as timed out, cut off or skipped;
/// - a module's handlers are called only while it is alive (created and
///   not yet stopped or removed), and what it registers once it is not is
///   refused;
/// - once the host has stopped, no hook, `run`, handler or time limit of it
///   runs, but a hook or handler that ignored its cancellation, reported
///   as such.
///
/// Event dispatch (``broadcast(_:)``, ``firstHandler(for:)``,
/// ``gather(_:)``) does not take a turn: many tasks may dispatch at once,
/// alongside every request.
public actor ModuleHost {
    /// How this host runs its modules.
    public nonisolated let configuration: HostConfiguration
    @usableFromInline nonisolated let shared: HostState
    let registry: ModuleRegistry
    private nonisolated let statusBroadcast = StatusBroadcast()
    /// The serial path every request takes.
    nonisolated let requests: HostRequests
    /// The `run` hooks that failed, in the order they did: the first is why
    /// the host stopped.
    nonisolated let failedRuns = Locked<[HookOutcome]>([])
    /// Where the host is, with its modules while launching or running.
    /// Move it to another state with ``enter(_:)``, which publishes the new
    /// status; change its roster in place with ``HostLifecycle/changeRoster(_:)``.
    var lifecycle = HostLifecycle.idle
    /// Every phase run so far, with what each hook did, for ``timings``.
    private var phaseLog: [LoggedPhase] = []

    /// A phase and what each of its hooks did. A struct, not a tuple: the
    /// runtime makes a tuple type's metadata from its mangled name on first
    /// use, and an array of tuples' too.
    private struct LoggedPhase {
        let phase: PhaseRun
        let records: PhaseRecords
    }
    /// The `run` tasks of modules that have one, in the order they began,
    /// while they may run. Locked, not the actor's: a run begins in the
    /// start phase's runner, right after its module's start hook.
    nonisolated let runs = Locked<[ModuleRun]>([])
    /// The rank the next module created gets.
    private var nextRank = 0
    /// How the shutdown went, once the host has stopped (or what a launch
    /// that the shutdown interrupted stopped again).
    var shutdownOutcomes: [HookOutcome] = []
    /// The modules the shutdown stopped, in the order stopped.
    var stoppedModules: [HostedModule] = []
    /// The work of a one-shot program (``main(configuration:_:)``), once it
    /// runs: the shutdown ends it first.
    var command: CommandWork?

    /// A host for the modules of `registry`, not yet launched.
    public init(registry: ModuleRegistry, configuration: HostConfiguration = HostConfiguration()) {
        self.registry = registry
        self.shared = HostState(configuration: configuration)
        // With the host's settings from its configuration (the
        // Configuration trait), if it has any.
        self.configuration = shared.configuration
        self.requests = HostRequests(stage: shared.shutdown)
        // Weak: the state outlives nothing, but a module's context may.
        shared.requestStop.withLock { $0 = { [weak self] module in self?.requestStop(.moduleRequest(module)) } }
        shared.runFailed.withLock { $0 = { [weak self] outcome in self?.runFailed(outcome) } }
    }

    /// The names of the modules that have started and not stopped, in start
    /// order.
    public var runningModules: [String] {
        lifecycle.roster?.started.map(\.name) ?? []
    }

    /// How long each hook and (if timed) each event handler took so far.
    public var timings: TimingTable {
        TimingTable(hooks: phaseLog.flatMap { Self.outcomes(of: $0.phase, $0.records) } + failedRuns.withLock { $0 },
                    events: shared.eventTimings?.all ?? [])
    }

    // MARK: Status

    /// Where the host is now: idle, launching, running, stopping, stopped
    /// (with the hooks that failed), or launch failed. Read without `await`:
    /// it is not the actor's.
    public nonisolated var status: HostStatus {
        statusBroadcast.current
    }

    /// Why the host stops or stopped: the first stop asked for (a signal,
    /// ``terminate()``, a module's request, a failed `run`, cancellation);
    /// `nil` while none was. Read without `await`.
    public nonisolated var stopReason: StopReason? {
        shared.shutdown.reason
    }

    /// The current status, then each change as it happens, up to
    /// ``HostStatus/stopped(failures:)`` or ``HostStatus/launchFailed(_:)``,
    /// where the sequence ends. Each call makes a new sequence; none misses
    /// a change.
    ///
    /// ```swift
    /// for await status in host.statusUpdates { print(status) }
    /// ```
    public nonisolated var statusUpdates: AsyncStream<HostStatus> {
        statusBroadcast.updates()
    }

    /// Whether the host is ready for outside work: `true` while its status
    /// is ``HostStatus/running``, `false` from the moment a shutdown is
    /// asked for, before anything stops (then ``HostConfiguration/lameDuckDelay``
    /// passes, the modules stop their intake, and the `run`s drain). What a
    /// readiness probe answers; a module reads it as
    /// ``ModuleContext/isHostReady``.
    public nonisolated var isReady: Bool {
        shared.shutdown.isReady
    }

    /// Waits, without polling, until every module is ready.
    ///
    /// - Returns: `true` once the host is running (at once if it is);
    ///   `false` if it never will be: launch failed or was cancelled, the
    ///   host is stopping or stopped, or the waiting task was cancelled.
    ///   ``status`` says which.
    public nonisolated func waitUntilRunning() async -> Bool {
        for await status in statusUpdates {
            switch status {
            case .running: return true
            case .idle, .launching: continue
            case .stopping, .stopped, .launchFailed: return false
            }
        }
        return false
    }

    /// Waits until the host has stopped or its launch failed, whether or
    /// not the waiting task is cancelled.
    nonisolated func waitUntilFinal() async -> HostStatus {
        await statusBroadcast.final()
    }

    /// Waits until the host has stopped or its launch failed, or until the
    /// waiting task is cancelled (then `nil`).
    nonisolated func waitUntilFinalOrCancelled() async -> HostStatus? {
        await statusBroadcast.final(untilCancelled: true)
    }

    /// Moves the host to `next` and publishes its status; the trace is
    /// written when the host is running and when it has stopped.
    func enter(_ next: HostLifecycle) {
        lifecycle = next
        let status = next.status(stoppingFor: stopReason ?? .terminate)
        #if Tracing
        // Ended before the status is published: a caller that waited for
        // the stop finds the shutdown's span ended.
        if case .stopped(let failures) = status { shared.spans.endShutdown(failures: failures.count) }
        if case .launchFailed = status { shared.spans.endShutdown(failures: 0) }
        #endif
        if status.isRunning { shared.shutdown.markReady() }
        statusBroadcast.publish(status)
        // The metadata is no autoclosure: made only if the log takes it.
        // The stage only: the failures and a launch's error are said once,
        // by the shutdown's last line and the launch's error.
        if shared.log.takes(.debug) {
            let stage = switch status {
            case .stopped(let failures) where !failures.isEmpty: "stopped, with failures"
            case .launchFailed: "launch failed"
            default: "\(status)"
            }
            shared.log(.debug, "SectionRegistry: \(stage)", ["status": stage])
        }
        guard let trace = shared.trace, status.isFinal || status.isRunning else { return }
        do {
            try trace.write()
        } catch {
            shared.log(.error, "SectionRegistry: cannot write the trace to \(trace.path): \(error)")
        }
    }

    // MARK: The serial path

    /// Queues a request and waits for its result. The caller's cancellation
    /// reaches the request (``HostRequests/cancel(_:_:)``), never the engine.
    ///
    /// A request that would wait for itself is answered at once with
    /// `refused(error)`: asked from a hook of the request under way (or a
    /// handler such a hook calls), ``HostError/Code/calledFromHook``; asked
    /// from a module's `run` while the host stops that `run` (a shutdown,
    /// or its removal), ``HostError/Code/stopping``. Asked from a `run`
    /// before that, the engine knows it, and never waits for that `run` to
    /// end while it performs the request.
    ///
    /// The answer is any value, not only a `Result`: a launch answers with
    /// its error or `nil`, because a `Result<Void, HostError>` looks up
    /// `HostError: Error` in every image's conformance records the first
    /// time a process makes one.
    nonisolated func perform<Answer: Sendable>(
        _ kind: HostRequests.Kind, _ name: @autoclosure () -> String,
        refused: @Sendable (HostError) -> Answer,
        _ body: @escaping @Sendable (isolated ModuleHost, _ request: Int) async -> Answer
    ) async -> Answer {
        guard !requests.calledFromEngine else { return refused(.calledFromHook(name())) }
        let id = requests.makeID()
        let callerRun = requests.callingRun
        let queued = await withTaskCancellationHandler {
            await suspend { (continuation: Waiter<Answer?>) in
                let accepted = submit(id, kind, callerRun: callerRun) { host in continuation.resume(returning: await body(host, id)) }
                if !accepted { continuation.resume(returning: nil) }
            }
        } onCancel: {
            requests.cancel(id, kind)
        }
        return queued ?? refused(.stopping(name(), module: callerRun?.moduleName ?? ""))
    }

    /// Queues a request nobody waits for.
    ///
    /// - Returns: `false`, and nothing is queued, if `callerRun` is a `run`
    ///   the host is stopping.
    @discardableResult
    nonisolated func submit(
        _ id: Int, _ kind: HostRequests.Kind, callerRun: ModuleLife? = nil,
        _ body: @escaping @Sendable (isolated ModuleHost) async -> Void
    ) -> Bool {
        requests.submit(HostRequests.Request(id: id, kind: kind, callerRun: callerRun, perform: body)) {
            // Whoever queued the first request, the engine is nobody's hook
            // and nobody's run: its task says it is the engine. A second
            // stop cancels it (ShutdownStage).
            shared.shutdown.isRunBy(Task {
                await RequestOrigin.$current.withValue(.engine(ObjectIdentifier(requests))) { await self.performRequests() }
            })
        }
    }

    /// The engine: performs the queued requests one at a time, and ends
    /// when none is left (the next request starts it again).
    private func performRequests() async {
        while let request = requests.next() {
            await request.perform(self)
        }
    }

    /// Runs `phase` as the current request's, and keeps its records.
    func runPhase(_ phase: PhaseRun) async -> PhaseRecords {
        let start = ContinuousClock.now
        requests.waitsFor(phase)
        let records = await phase.execute()
        #if Tracing
        phase.endSpans(records)
        #endif
        #if Metrics
        recordMetrics(of: phase, records)
        #endif
        phaseLog.append(LoggedPhase(phase: phase, records: records))
        report(phase, records)
        if shared.log.takes(.debug) {
            // The hooks the modules write: a module without one had none.
            let called = phase.modules.count { $0.writesHook(of: phase.phase) }
            shared.log(.debug, "SectionRegistry: \(phase.phase) done: \(called) \(called == 1 ? "hook" : "hooks") called", phase: phase.phase,
                       duration: start.duration(to: .now))
        }
        return records
    }

    // MARK: Launch

    /// Creates the enabled modules and takes them through setUp, start and
    /// ready; each module's `run`, if it has one, begins right after its
    /// start hook (and, if it reports readiness, is ready before the modules
    /// after it start).
    ///
    /// The start order is resolved first (`StartOrder`): with a cycle, a
    /// missing or disabled dependency, nothing is created. setUp and ready
    /// run in start order; start runs step by step, modules that may start
    /// concurrently alongside each other. If a hook fails, every module that
    /// started is stopped in reverse order (step mates that completed
    /// included), and the error says which module failed, in which phase,
    /// and why.
    ///
    /// If the calling task is cancelled, or ``terminate()`` is called
    /// meanwhile, no further hook is called, the running one is cancelled
    /// (and has ``HostConfiguration/stopTimeLimit`` to return), the modules
    /// that started are stopped in reverse order, each within
    /// ``HostConfiguration/stopTimeLimit`` and shielded from the
    /// cancellation, and ``HostError`` (``HostError/Code/cancelled``) is
    /// thrown.
    public func launch() async throws(HostError) {
        let failure = await perform(.launch, "launch()", refused: { $0 }) { host, id in await host.launchNow(request: id) }
        if let failure { throw failure }
    }

    /// Launches; returns why it failed, or `nil` once the modules run.
    private func launchNow(request id: Int) async -> HostError? {
        guard case .idle = lifecycle else {
            // Stopped before it launched: a terminate() came first.
            if case .stopped = lifecycle { return .cancelled(rollback: []) }
            return .alreadyLaunched
        }
        enter(.launching(nil))
        let clock = ContinuousClock()
        let start = clock.now
        do throws(HostError) {
            guard !requests.isInterrupted(id, .launch) else { throw .cancelled(rollback: []) }
            #if Configuration
            guard shared.settingsProblems.isEmpty else { throw .invalidSetting(shared.settingsProblems) }
            #endif
            let plan: StartPlan
            do {
                plan = try StartPlan(registry.modules, disabled: configuration.allDisabledModules)
            } catch {
                throw HostError.invalidOrder(error)
            }
            // Still launching: the status is the same, nothing to publish.
            lifecycle = .launching(HostRoster(modules: registry.modules, plan: plan))
            try await withSpan("launch", root: true) { () async throws(HostError) in
                try await bringUp(plan.order, in: plan.steps, request: id, kind: .launch)
            }
        } catch {
            // A cancelled launch is no failure; bringUp said what it stopped.
            if error.code != .cancelled && configuration.logsLaunchFailure { shared.log(.error, error.description) }
            if error.code == .cancelled && shared.shutdown.hasBegun { shutdownOutcomes = error.rollback }
            enter(.launchFailed(error))
            return error
        }
        guard let roster = lifecycle.roster else { return nil }
        shared.log(.debug, "SectionRegistry: launched \(roster.started.count) modules", duration: start.duration(to: clock.now))
        enter(.running(roster))
        return nil
    }

    /// Creates the modules of the roster at the positions in `order`, a start
    /// order, takes them through setUp, start (in `steps`) and ready, and
    /// starts their `run`s. If a hook fails or the request is interrupted,
    /// stops those of them that started, in reverse order, forgets them all,
    /// and throws; modules started before are left running.
    func bringUp(_ order: [Int], in steps: StartSteps, request id: Int, kind: HostRequests.Kind) async throws(HostError) {
        guard let descriptors = lifecycle.roster?.modules else { throw .cancelled(rollback: []) }
        let first = order.min() ?? 0
        // Where each position's module is in `modules`. Indices, not a list
        // of optional modules: that list's types would be made on the first
        // launch of every process, for no other use.
        var made = [Int](repeating: -1, count: descriptors.count - first)
        var modules: [HostedModule] = []
        modules.reserveCapacity(order.count)
        for (rank, position) in order.enumerated() {
            let descriptor = descriptors[position]
            let module = HostedModule(
                instance: try descriptor.makeModule(),
                context: ModuleContext(moduleName: descriptor.name, rank: nextRank + rank, host: shared),
                position: position
            )
            made[position - first] = modules.count
            modules.append(module)
            #if Tracing
            shared.spans.note(level: descriptor.level, ofModuleAt: position)
            #endif
        }
        nextRank += modules.count
        shared.log(.debug, "SectionRegistry: start order: \(modules.map(\.name).joined(separator: ", "))")

        let grace = configuration.stopTimeLimit
        let setUp = PhaseRun(.setUp, of: modules, limit: nil, grace: grace, stopsAtFailure: true)
        if let interruption = interruption(of: setUp, await runPhase(setUp), request: id, kind: kind) {
            throw await rollBack([], created: modules, because: interruption)
        }

        var startOrder: [HostedModule] = []
        startOrder.reserveCapacity(modules.count)
        for position in steps.positions { startOrder.append(modules[made[position - first]]) }
        // A run begins right after its module's start; where no module has
        // one, the start hooks pay no follow-up call.
        let start = PhaseRun(.start, of: startOrder, stepSizes: steps.sizes, limit: configuration.startTimeLimit, grace: grace,
                             stopsAtFailure: true, beginsRunsIn: startOrder.contains { $0.hasRunHook } ? self : nil)
        let startRecords = await runPhase(start)
        var started: [HostedModule] = []
        started.reserveCapacity(startOrder.count)
        for (position, module) in startOrder.enumerated() {
            switch startRecords[position].end {
            case .completed: started.append(module)
            // A run that failed before it was ready: its start hook
            // returned, so the module is stopped again like the others.
            case .failed where startRecords.error(at: position) is RunFailure: started.append(module)
            // Over the start limit while it waited for its run's readiness:
            // its start hook returned and its run goes on, so it is ended
            // and stopped with the others.
            case .timedOut where hasBegunRun(module): started.append(module)
            case .failed, .timedOut, .cutOff, .skipped: continue
            }
        }
        lifecycle.changeRoster { roster in
            for module in started { roster.start(module) }
        }
        #if Metrics
        shared.metrics.started(started.count)
        #endif
        if let interruption = interruption(of: start, startRecords, request: id, kind: kind) {
            throw await rollBack(started, created: modules, because: interruption)
        }

        let ready = PhaseRun(.ready, of: started, limit: nil, grace: grace, stopsAtFailure: true)
        if let interruption = interruption(of: ready, await runPhase(ready), request: id, kind: kind) {
            throw await rollBack(started, created: modules, because: interruption)
        }
        if let failure = joinRuns(of: started) {
            throw await rollBack(started, created: modules, because: failure)
        }
    }

    /// A module's `run` failed, or returned before it was ready, while its
    /// module was starting: the launch fails in phase ``LifecyclePhase/run``.
    private struct RunFailure: Error {
        let error: any Error
    }

    /// Why a bring-up stops.
    private enum Interruption {
        case failed(module: String, phase: LifecyclePhase, error: any Error)
        case cancelled
    }

    /// Why the bring-up that ran `phase` must stop, if it must: the request
    /// was interrupted (a hook that failed because it saw the cancellation
    /// is no failure), or the first hook in order that did not complete.
    private func interruption(
        of phase: PhaseRun, _ records: PhaseRecords, request id: Int, kind: HostRequests.Kind
    ) -> Interruption? {
        if requests.isInterrupted(id, kind) { return .cancelled }
        for position in records.indices where records[position].end != .completed {
            switch records.result(at: position) {
            case .completed, .skipped:
                continue
            case .failed(let failure as RunFailure):
                return .failed(module: phase.modules[position].name, phase: .run, error: failure.error)
            case .failed(let error):
                return .failed(module: phase.modules[position].name, phase: phase.phase, error: error)
            case .timedOut:
                let limit = configuration.startTimeLimit ?? .zero
                let module = phase.modules[position]
                if phase.phase == .start, hasBegunRun(module) {
                    // The start hook returned: the wait for its run's
                    // readiness is what ran out.
                    return .failed(module: module.name, phase: .run, error: ReadinessTimedOut(limit: limit, setting: "startTimeLimit"))
                }
                return .failed(module: module.name, phase: phase.phase,
                               error: HostError.timeLimitExceeded(module.name, in: phase.phase, limit: limit))
            case .cutOff:
                return .cancelled
            }
        }
        return nil
    }

    /// Takes `started` out of the roster, forgets everything `created`
    /// registered, stops `started` in reverse order, and says why.
    private func rollBack(_ started: [HostedModule], created: [HostedModule], because interruption: Interruption) async -> HostError {
        lifecycle.changeRoster { _ = $0.takeStarted(at: Set(started.map(\.position))) }
        for module in created { shared.forget(module.life) }
        let rollback = await stop(reversing: started)
        switch interruption {
        case .cancelled:
            let error = HostError.cancelled(rollback: rollback.outcomes, stopped: rollback.names)
            shared.log(.info, "SectionRegistry: launch cancelled; \(error.stoppedAgain)")
            return error
        case .failed(let module, let phase, let cause):
            // A module whose run failed before it was ready never started,
            // though its stop hook, if it writes one, was called: its
            // failure is the message's subject, not one of the stopped.
            return .moduleFailed(module, in: phase, error: cause, rollback: rollback.outcomes, stopped: rollback.names.filter { $0 != module })
        }
    }

    // MARK: Long-running work

    /// Begins `module`'s ``AppModule/run(_:)``, if it has one, right after
    /// its start hook returned: the modules that come after it may use
    /// what its `run` serves. A module that reports readiness is waited for
    /// here, as part of its start: the modules after it start once it is
    /// ready.
    ///
    /// - Throws: ``RunFailure`` if the `run` fails or returns before it is
    ///   ready.
    nonisolated(nonsending) func beginRun(of module: HostedModule) async throws {
        guard module.hasRunHook else { return }
        let run = ModuleRun.begin(module, origin: .run(ObjectIdentifier(requests), module.life))
        runs.withLock { $0.append(run) }
        guard module.reportsReadiness else { return }
        do {
            try await run.ready(within: configuration.readinessTimeLimit)
        } catch {
            throw RunFailure(error: error)
        }
    }

    /// Whether `module`'s `run` has begun: its start hook returned.
    private func hasBegunRun(_ module: HostedModule) -> Bool {
        module.hasRunHook && runs.withLock { runs in runs.contains { $0.module === module } }
    }

    /// The `run`s of `modules` join the running host: from now on a failure
    /// stops it.
    ///
    /// - Returns: the first of them that failed while the launch went on.
    private func joinRuns(of modules: [HostedModule]) -> Interruption? {
        let joining = RosterIndex(modules)
        let begun = runs.withLock { runs in runs.filter(joining.contains) }
        for run in begun {
            if case .failed(let error) = run.join() { return .failed(module: run.module.name, phase: .run, error: error) }
        }
        return nil
    }

    // MARK: Reload, removal, shutdown

    /// Calls every running module's reload hook, in start order, each
    /// within ``HostConfiguration/reloadTimeLimit`` (10 seconds by
    /// default). A failure or a hook over its limit is reported in the
    /// result and does not stop the others. Once the host begins to stop,
    /// or if the calling task is cancelled, no further reload hook is called
    /// and the one running is cancelled and cut off at once.
    @discardableResult
    public func reload() async -> [HookOutcome] {
        await perform(.reload, "reload()", refused: { .success(refusedReload($0)) }) { host, id in
            Result<_, Never>.success(await host.reloadNow(request: id))
        }.get()
    }

    /// A reload that would wait for itself (see ``perform(_:_:refused:_:)``).
    /// Nothing is reloaded; the log says why.
    private nonisolated func refusedReload(_ error: HostError) -> [HookOutcome] {
        shared.log(.warning, "SectionRegistry: \(error.message); nothing was reloaded")
        return []
    }

    func reloadNow(request id: Int) async -> [HookOutcome] {
        guard case .running(let roster) = lifecycle, !requests.isInterrupted(id, .reload) else { return [] }
        let phase = PhaseRun(.reload, of: roster.started, limit: configuration.reloadTimeLimit, grace: .zero, stopsAtFailure: false)
        return Self.outcomes(of: phase, await withSpan("reload", root: true) { await runPhase(phase) })
    }

    /// Ends a running module's `run`, then stops it, within the stop time
    /// limit, and forgets it: its event handlers and services are gone
    /// before it stops. Waits for its turn: a launch or load under way ends
    /// first, so a module coming up after it counts as a dependent.
    ///
    /// - Returns: how its `run` ended if it did not drain cleanly, then how
    ///   its stop hook ended: only what the module writes, so nothing for a
    ///   module with neither.
    /// - Throws: ``HostError`` (``HostError/Code/notRunning``, ``HostError/Code/hasDependents``) if it is not running, or running modules
    ///   come after it.
    @discardableResult
    public func remove(_ name: String) async throws(HostError) -> [HookOutcome] {
        try await perform(.remove, "remove(\"\(name)\")", refused: { .failure($0) }) { host, _ in await host.removeNow(name) }.get()
    }

    private func removeNow(_ name: String) async -> Result<[HookOutcome], HostError> {
        guard case .running(let roster) = lifecycle, let module = roster.started.first(where: { $0.name == name }) else {
            return .failure(.notRunning(name))
        }
        let dependents = roster.runningDependents(of: CollectionOfOne(module.position))
        guard dependents.isEmpty else { return .failure(.hasDependents(name, dependents: dependents.map(\.name))) }
        lifecycle.changeRoster { _ = $0.takeStarted(at: CollectionOfOne(module.position)) }
        shared.forget(module.life)
        return .success(await withSpan("remove", root: true, modules: [name]) { await stop(reversing: [module]).outcomes })
    }

    // MARK: Reports

    /// The outcomes of the hooks of `phase` that were called, and for a stop
    /// phase those skipped: of the hooks the modules write only.
    static func outcomes(of phase: PhaseRun, _ records: PhaseRecords) -> [HookOutcome] {
        // Room for every hook at once: a stop has an outcome for each, and
        // growing the list moved every outcome made so far at each doubling.
        var outcomes: [HookOutcome] = []
        outcomes.reserveCapacity(phase.phase == .stop ? records.hooks.count : 0)
        for position in records.indices {
            let record = records[position]
            guard record.ended || phase.phase == .stop,
                  phase.modules[position].reportsHook(of: phase.phase, endingAs: record.end) else { continue }
            outcomes.append(HookOutcome(module: phase.modules[position].name, phase: phase.phase, result: records.result(at: position),
                                        duration: record.duration, start: record.start))
        }
        return outcomes
    }

    /// Logs and traces what each hook of `phase` did. Each hook costs a
    /// message only when the log takes debug messages, the hook did not
    /// complete, or was slow.
    private func report(_ phase: PhaseRun, _ records: PhaseRecords) {
        let everyHook = shared.log.takes(.debug) || shared.trace != nil
        let threshold = MonotonicInstant.nanoseconds(of: shared.log.slowHookThreshold)
        for position in records.indices {
            let notable: Bool
            if records[position].end == .completed {
                notable = everyHook || records[position].elapsed > threshold
            } else {
                notable = records[position].ended || phase.phase == .stop
            }
            guard notable, phase.modules[position].reportsHook(of: phase.phase, endingAs: records[position].end) else { continue }
            let record = records[position]
            let result = records.result(at: position)
            let outcome = HookOutcome(module: phase.modules[position].name, phase: phase.phase, result: result,
                                      duration: record.duration, start: record.start)
            if !Self.endsBringUp(phase.phase, result) { shared.log.record(outcome) }
            shared.trace?.hook(outcome, lane: phase.lane(of: position))
        }
    }

    /// Whether `result` of a hook of `phase` fails a launch or load: its
    /// error tells it, once, so the hook's own line would say it twice.
    private static func endsBringUp(_ phase: LifecyclePhase, _ result: HookOutcome.Result) -> Bool {
        switch (phase, result) {
        case (_, .failed(let error)) where error is CancellationError:
            false  // a cancellation, logged as such: no failure
        case (.setUp, .failed), (.start, .failed), (.ready, .failed), (.start, .timedOut): true
        default: false
        }
    }
}

/// The host begins each module's `run` as part of its start (``beginRun(of:)``).
extension ModuleHost: RunBeginner {}
