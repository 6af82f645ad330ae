/// Runs the modules of a registry: launches them in dependency order,
/// dispatches events to them, and stops them in reverse order.
///
/// ```swift
/// let host = ModuleHost(registry: try ModuleRegistry.linked())
/// try await host.run()      // launch, then serve until SIGTERM, SIGINT or cancellation
/// ```
///
/// One host launches once. Event dispatch (``broadcast(_:)``,
/// ``firstHandler(for:)``, ``gather(_:)``) does not go through the actor:
/// many tasks may dispatch at once, alongside launch, removal and shutdown.
public actor ModuleHost {
    /// How this host runs its modules.
    public nonisolated let configuration: HostConfiguration
    @usableFromInline nonisolated let shared: HostState
    let registry: ModuleRegistry
    private nonisolated let statusBroadcast = StatusBroadcast()
    /// Where the host is, with its modules while launching or running.
    /// Move it to another state with ``enter(_:)``, which publishes the new
    /// status; change its roster in place with ``HostLifecycle/changeRoster(_:)``.
    var lifecycle = HostLifecycle.idle
    private var hookOutcomes: [HookOutcome] = []
    /// The rank the next module created gets.
    private var nextRank = 0
    /// Whether a failed launch is logged: not under ``main(configuration:)``,
    /// which reports it itself, once.
    private let logsLaunchFailure: Bool

    /// A host for the modules of `registry`, not yet launched.
    public init(registry: ModuleRegistry, configuration: HostConfiguration = HostConfiguration()) {
        self.init(registry: registry, configuration: configuration, logsLaunchFailure: true)
    }

    init(registry: ModuleRegistry, configuration: HostConfiguration, logsLaunchFailure: Bool) {
        self.registry = registry
        self.configuration = configuration
        self.shared = HostState(configuration: configuration)
        self.logsLaunchFailure = logsLaunchFailure
    }

    /// The names of the modules that have started and not stopped, in start
    /// order.
    public var runningModules: [String] {
        lifecycle.roster?.started.map(\.name) ?? []
    }

    /// How long each hook and (if timed) each event handler took so far.
    public var timings: TimingTable {
        TimingTable(hooks: hookOutcomes, events: shared.eventTimings.all)
    }

    // MARK: Status

    /// Where the host is now: idle, launching, running, stopping, stopped
    /// (with the stop hooks that failed), or launch failed.
    public nonisolated var status: HostStatus {
        statusBroadcast.current
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

    /// Moves the host to `next` and publishes its status; the trace is
    /// written when the host is running and when it has stopped.
    private func enter(_ next: HostLifecycle) {
        lifecycle = next
        let status = next.status
        statusBroadcast.publish(status)
        shared.log(.debug, "SectionRegistry: \(status)", ["status": "\(status)"])
        guard let trace = shared.trace, status.isFinal || status.isRunning else { return }
        do {
            try trace.write()
        } catch {
            shared.log(.error, "SectionRegistry: cannot write the trace to \(trace.path): \(error)")
        }
    }

    // MARK: Launch

    /// Creates the enabled modules and takes them through setUp, start and
    /// ready.
    ///
    /// The start order is resolved first (``StartOrder``): with a cycle, a
    /// missing or disabled dependency, nothing is created. setUp and ready
    /// run in start order; start runs step by step, modules that may start
    /// concurrently alongside each other. If a hook fails, every module that
    /// started is stopped in reverse order, and the error says which module
    /// failed, in which phase, and why.
    ///
    /// If the calling task is cancelled, no further hook is called (the one
    /// running sees the cancellation), the modules that started are stopped
    /// in reverse order, each within ``HostConfiguration/stopTimeLimit`` and
    /// shielded from the cancellation, and ``HostError`` (``HostError/Code/cancelled``)
    /// is thrown.
    public func launch() async throws(HostError) {
        guard case .idle = lifecycle else { throw .alreadyLaunched }
        enter(.launching(nil))
        let clock = ContinuousClock()
        let start = clock.now
        do throws(HostError) {
            let plan: StartPlan
            do {
                plan = try StartPlan(registry.modules.map(\.declaration), disabled: configuration.allDisabledModules)
            } catch {
                throw HostError.invalidOrder(error)
            }
            // Still launching: the status is the same, nothing to publish.
            lifecycle = .launching(HostRoster(modules: registry.modules, plan: plan))
            try await bringUp(plan.order, in: plan.steps)
        } catch {
            // A cancelled launch is no failure; bringUp said what it stopped.
            if error.code != .cancelled && logsLaunchFailure { shared.log(.error, error.description) }
            enter(.launchFailed(error))
            throw error
        }
        guard let roster = lifecycle.roster else { return }
        shared.log(.debug, "SectionRegistry: launched \(roster.started.count) modules", duration: start.duration(to: clock.now))
        enter(.running(roster))
    }

    /// Creates the modules of the roster at the positions in `order`, a start
    /// order, and takes them through setUp, start (in `steps`) and ready. If
    /// a hook fails, the calling task is cancelled or the host stops
    /// meanwhile, stops those of them that started and still run, in reverse
    /// order, forgets them all, and throws; modules started before are left
    /// running.
    func bringUp(_ order: [Int], in steps: [[Int]]) async throws(HostError) {
        guard let descriptors = lifecycle.roster?.modules else { throw .cancelled(rollback: []) }
        let first = order.min() ?? 0
        var created = [HostedModule?](repeating: nil, count: descriptors.count - first)
        let modules = try order.enumerated().map { rank, position throws(HostError) in
            let descriptor = descriptors[position]
            let module = HostedModule(
                descriptor: descriptor,
                instance: try descriptor.makeModule(),
                context: ModuleContext(moduleName: descriptor.name, rank: nextRank + rank, host: shared),
                position: position
            )
            created[position - first] = module
            return module
        }
        nextRank += modules.count
        shared.log(.debug, "SectionRegistry: start order: \(modules.map(\.name).joined(separator: ", "))")
        var started: [Started] = []
        do throws(Interruption) {
            try await timedPhase(.setUp, of: modules.count) { () async throws(Interruption) in
                for module in modules {
                    try await runOrThrow(.setUp, [module], startingInto: &started)
                }
            }
            try await timedPhase(.start, of: modules.count) { () async throws(Interruption) in
                for step in steps {
                    let step = step.map { created[$0 - first]! }
                    if step.count > 1 {
                        shared.log(.debug, "SectionRegistry: starting \(step.map(\.name).joined(separator: ", ")) alongside each other")
                    }
                    try await runOrThrow(.start, step, startingInto: &started)
                }
            }
            try await timedPhase(.ready, of: modules.count) { () async throws(Interruption) in
                // Not those removed meanwhile.
                for module in started.lazy.map(\.module) where lifecycle.runs(module.position) {
                    try await runOrThrow(.ready, [module], startingInto: &started)
                }
            }
        } catch {
            // Those of them still running: not those terminate() or
            // remove(_:) stopped meanwhile, and those that started after
            // terminate() began, which never joined the roster.
            let stillRunning = Set(lifecycle.changeRoster { roster in
                roster.takeStarted(at: Set(started.lazy.filter(\.joined).map(\.module.position)))
            }?.map(\.position) ?? [])
            let stopping = started.filter { !$0.joined || stillRunning.contains($0.module.position) }
            for module in modules { shared.forget(module.name) }
            // In a task of its own: a cancelled caller must not cut the
            // stop hooks short.
            let rollback = await Task { await self.stop(stopping.reversed().map(\.module)) }.value
            switch error {
            case .cancelled:
                shared.log(.info, "SectionRegistry: launch cancelled; stopped again: \(rollback.map(\.module).joined(separator: ", "))")
                throw .cancelled(rollback: rollback)
            case .failed(let module, let phase, let cause):
                throw .moduleFailed(module, in: phase, error: cause, rollback: rollback)
            }
        }
    }

    /// A module a bring-up started, and whether it joined the roster (it
    /// does not when the host has begun to stop).
    private struct Started {
        let module: HostedModule
        let joined: Bool
    }

    /// Why ``bringUp(_:in:)`` stopped.
    private enum Interruption: Error {
        case failed(module: String, phase: LifecyclePhase, error: any Error)
        case cancelled
    }

    /// Runs `body`, one phase of a launch, and logs how long it took.
    private func timedPhase(
        _ phase: LifecyclePhase, of count: Int, _ body: () async throws(Interruption) -> Void
    ) async throws(Interruption) {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        shared.log(.debug, "SectionRegistry: \(phase) of \(count) modules done", phase: phase, duration: start.duration(to: clock.now))
    }

    /// Runs `phase` of `modules`, alongside each other when there are
    /// several. Modules that start are added to `started` and, unless the
    /// host has begun to stop, to the roster; throws the first failure in
    /// start order, or ``Interruption/cancelled`` before and after the hooks
    /// if the calling task is cancelled or the host has begun to stop.
    private func runOrThrow(
        _ phase: LifecyclePhase, _ modules: [HostedModule], startingInto started: inout [Started]
    ) async throws(Interruption) {
        guard !Task.isCancelled, lifecycle.hasRoster else { throw .cancelled }
        let limit = phase == .start ? configuration.startTimeLimit : nil
        guard modules.count > 1 else {
            // One module, the usual case: no task group and no arrays.
            let outcome = await Self.run(phase, of: modules[0], within: limit)
            record(outcome)
            try settle(outcome, of: modules[0], in: phase, startingInto: &started)
            return
        }
        let outcomes = await withTaskGroup(of: (Int, HookOutcome).self) { group in
            for (index, module) in modules.enumerated() {
                group.addTask { (index, await Self.run(phase, of: module, within: limit)) }
            }
            var outcomes = [HookOutcome?](repeating: nil, count: modules.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0! }
        }
        for (lane, outcome) in outcomes.enumerated() { record(outcome, lane: lane) }
        for (module, outcome) in zip(modules, outcomes) {
            try settle(outcome, of: module, in: phase, startingInto: &started)
        }
    }

    /// Records `module` as started if `outcome` is a completed start, and
    /// throws ``Interruption/cancelled`` if the calling task is cancelled or
    /// the host has begun to stop (a hook that failed because it saw the
    /// cancellation is not a failure), else the hook's failure.
    private func settle(
        _ outcome: HookOutcome, of module: HostedModule, in phase: LifecyclePhase, startingInto started: inout [Started]
    ) throws(Interruption) {
        if phase == .start, case .completed = outcome.result {
            let joined = lifecycle.changeRoster { $0.start(module) } != nil
            started.append(Started(module: module, joined: joined))
        }
        guard !Task.isCancelled, lifecycle.hasRoster else { throw .cancelled }
        switch outcome.result {
        case .failed(let error):
            throw .failed(module: outcome.module, phase: phase, error: error)
        case .timedOut:
            let limit = configuration.startTimeLimit ?? .zero
            throw .failed(module: outcome.module, phase: phase, error: HostError.timeLimitExceeded(outcome.module, in: phase, limit: limit))
        case .completed, .skipped:
            return
        }
    }

    /// Runs one hook, timed; with a `limit`, in a task of its own that the
    /// host stops waiting for when the limit is up or the caller is cancelled.
    /// Non-sending: on the host's executor, so that calling a hook costs no
    /// hop of its own.
    private nonisolated(nonsending) static func run(
        _ phase: LifecyclePhase, of module: HostedModule, within limit: Duration?
    ) async -> HookOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let result: HookOutcome.Result
        if let limit {
            switch await withTimeLimit(limit, { try await module.run(phase) }) {
            case .success?: result = .completed
            case .failure(let error)?: result = .failed(error)
            case nil: result = Task.isCancelled ? .skipped : .timedOut
            }
        } else {
            do {
                try await module.run(phase)
                result = .completed
            } catch {
                result = .failed(error)
            }
        }
        return HookOutcome(module: module.name, phase: phase, result: result, duration: start.duration(to: clock.now), start: start)
    }

    /// Keeps `outcome` for ``timings``, logs it, and adds it to the trace,
    /// on track `lane` (hooks that ran alongside each other have one each).
    private func record(_ outcome: HookOutcome, lane: Int = 0) {
        hookOutcomes.append(outcome)
        shared.log.record(outcome)
        shared.trace?.hook(outcome, lane: lane)
    }

    // MARK: Reload, removal, shutdown

    /// Calls every running module's reload hook, in start order, each
    /// within ``HostConfiguration/reloadTimeLimit``. A failure or a hook
    /// over its limit is reported in the result and does not stop the
    /// others. Once the host begins to stop, or if the calling task is
    /// cancelled, no further reload hook is called (the one running sees the
    /// cancellation, and is not waited for).
    @discardableResult
    public func reload() async -> [HookOutcome] {
        guard case .running(let roster) = lifecycle else { return [] }
        var outcomes: [HookOutcome] = []
        // Not those removed meanwhile.
        for module in roster.started where lifecycle.isRunning && lifecycle.runs(module.position) && !Task.isCancelled {
            outcomes.append(await Self.run(.reload, of: module, within: configuration.reloadTimeLimit))
        }
        outcomes.forEach { record($0) }
        return outcomes
    }

    /// Stops a running module, within the stop time limit, and forgets it:
    /// its event handlers and services are gone before it stops.
    ///
    /// - Throws: ``HostError`` (``HostError/Code/notRunning``, ``HostError/Code/hasDependents``) if it is not running, or running modules
    ///   come after it.
    @discardableResult
    public func remove(_ name: String) async throws(HostError) -> HookOutcome {
        guard let roster = lifecycle.roster, let module = roster.started.first(where: { $0.name == name }) else {
            throw .notRunning(name)
        }
        let dependents = roster.runningDependents(of: CollectionOfOne(module.position))
        guard dependents.isEmpty else { throw .hasDependents(name, dependents: dependents.map(\.name)) }
        lifecycle.changeRoster { _ = $0.takeStarted(at: CollectionOfOne(module.position)) }
        shared.forget(name)
        let outcome = await stop(module)
        record(outcome)
        return outcome
    }

    /// Stops every running module in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit``, and forgets them. If the calling
    /// task is cancelled (a second SIGTERM in ``run()``), the modules not yet
    /// stopped are skipped. A plugin load under way when it begins fails,
    /// and stops those of its modules that started after.
    @discardableResult
    public func terminate() async -> [HookOutcome] {
        guard case .running(let roster) = lifecycle else { return [] }
        enter(.stopping)
        let outcomes = await stop(roster.started.reversed())
        for plugin in roster.plugins {
            plugin.library.close()
        }
        enter(.stopped(failures: outcomes.filter(\.failedOrTimedOut)))
        return outcomes
    }

    /// Forgets and stops `modules`, in the order given.
    func stop(_ modules: some Sequence<HostedModule>) async -> [HookOutcome] {
        var outcomes: [HookOutcome] = []
        for module in modules {
            shared.forget(module.name)
            outcomes.append(await stop(module))
        }
        outcomes.forEach { record($0) }
        return outcomes
    }

    private func stop(_ module: HostedModule) async -> HookOutcome {
        guard !Task.isCancelled else {
            return HookOutcome(module: module.name, phase: .stop, result: .skipped, duration: .zero, start: ContinuousClock.now)
        }
        return await Self.run(.stop, of: module, within: configuration.stopTimeLimit)
    }
}
