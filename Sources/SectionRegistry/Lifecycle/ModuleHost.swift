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
    /// A module the host created, with its context. A class: the host keeps
    /// it in several lists and steps, and a copy is then one retain.
    final class HostedModule: Sendable {
        let descriptor: ModuleDescriptor
        let instance: any AppModule
        let context: ModuleContext

        init(descriptor: ModuleDescriptor, instance: any AppModule, context: ModuleContext) {
            self.descriptor = descriptor
            self.instance = instance
            self.context = context
        }

        var name: String { descriptor.name }

        nonisolated(nonsending) func run(_ phase: LifecyclePhase) async throws {
            switch phase {
            case .setUp: try await instance.setUp(context)
            case .start: try await instance.start(context)
            case .ready: try await instance.ready(context)
            case .reload: try await instance.reload(context)
            case .stop: try await instance.stop(context)
            }
        }
    }

    /// How this host runs its modules.
    public nonisolated let configuration: HostConfiguration
    @usableFromInline nonisolated let shared: HostState
    let registry: ModuleRegistry
    private nonisolated let statusBroadcast = StatusBroadcast()
    /// The modules whose `start` succeeded, in start order.
    var started: [HostedModule] = []
    private var hookOutcomes: [HookOutcome] = []
    /// Plugins loaded into this host, in load order.
    var plugins: [PluginLibrary.Loaded] = []
    /// The rank the next module created gets.
    private var nextRank = 0

    /// A host for the modules of `registry`, not yet launched.
    public init(registry: ModuleRegistry, configuration: HostConfiguration = HostConfiguration()) {
        self.registry = registry
        self.configuration = configuration
        self.shared = HostState(configuration: configuration)
    }

    /// The names of the modules that have started and not stopped, in start
    /// order.
    public var runningModules: [String] {
        started.map(\.name)
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

    /// Publishes `status`; the trace is written when the host is running and
    /// when it has stopped.
    private func publish(_ status: HostStatus) {
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
    /// shielded from the cancellation, and ``LaunchError/cancelled(rollback:)``
    /// is thrown.
    public func launch() async throws(LaunchError) {
        guard case .idle = status else { throw .alreadyLaunched }
        publish(.launching)
        let clock = ContinuousClock()
        let start = clock.now
        do throws(LaunchError) {
            let order: [ModuleDescriptor]
            do {
                order = try StartOrder.resolve(registry.modules.map(\.declaration), disabled: configuration.allDisabledModules)
                    .map { registry.modules[$0] }
            } catch {
                throw LaunchError.invalidOrder(error)
            }
            try await bringUp(order)
        } catch {
            // A cancelled launch is no failure; bringUp said what it stopped.
            if case .cancelled = error {} else { shared.log(.error, error.description) }
            publish(.launchFailed(error))
            throw error
        }
        shared.log(.debug, "SectionRegistry: launched \(started.count) modules", duration: start.duration(to: clock.now))
        publish(.running)
    }

    /// Creates the modules of `order`, a start order, and takes them through
    /// setUp, start and ready. If a hook fails or the calling task is
    /// cancelled, stops those of them that started, in reverse order,
    /// forgets them all, and throws; modules started before are left running.
    func bringUp(_ order: [ModuleDescriptor]) async throws(LaunchError) {
        let instances: [any AppModule]
        do {
            instances = try order.map { descriptor throws(FactoryError) in try descriptor.makeModule() }
        } catch {
            throw .factoryFailed(error)
        }
        let modules = zip(order, instances).map { descriptor, instance in
            defer { nextRank += 1 }
            return HostedModule(
                descriptor: descriptor,
                instance: instance,
                context: ModuleContext(moduleName: descriptor.name, rank: nextRank, host: shared)
            )
        }
        let byName = Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0) })
        let alreadyStarted = started.count
        shared.log(.debug, "SectionRegistry: start order: \(order.map(\.name).joined(separator: ", "))")
        do throws(Interruption) {
            try await timedPhase(.setUp, of: modules.count) { () async throws(Interruption) in
                for module in modules {
                    try await runOrThrow(.setUp, [module])
                }
            }
            try await timedPhase(.start, of: modules.count) { () async throws(Interruption) in
                for step in StartSteps.group(order) {
                    if step.count > 1 {
                        shared.log(.debug, "SectionRegistry: starting \(step.map(\.name).joined(separator: ", ")) alongside each other")
                    }
                    try await runOrThrow(.start, step.map { byName[$0.name]! })
                }
            }
            try await timedPhase(.ready, of: modules.count) { () async throws(Interruption) in
                for module in started[alreadyStarted...] {
                    try await runOrThrow(.ready, [module])
                }
            }
        } catch {
            let stopping = Array(started[alreadyStarted...].reversed())
            started.removeSubrange(alreadyStarted...)
            for module in modules { shared.forget(module.name) }
            // In a task of its own: a cancelled caller must not cut the
            // stop hooks short.
            let rollback = await Task { await self.stop(stopping) }.value
            switch error {
            case .cancelled:
                shared.log(.info, "SectionRegistry: launch cancelled; stopped again: \(rollback.map(\.module).joined(separator: ", "))")
                throw .cancelled(rollback: rollback)
            case .failed(let module, let phase, let cause):
                throw .moduleFailed(module: module, phase: phase, error: cause, rollback: rollback)
            }
        }
    }

    /// Why ``bringUp(_:)`` stopped.
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
    /// several. Modules that start are recorded as started; throws the first
    /// failure in start order, or ``Interruption/cancelled`` before and after
    /// the hooks if the calling task is cancelled.
    private func runOrThrow(_ phase: LifecyclePhase, _ modules: [HostedModule]) async throws(Interruption) {
        guard !Task.isCancelled else { throw .cancelled }
        let limit = phase == .start ? configuration.startTimeLimit : nil
        guard modules.count > 1 else {
            // One module, the usual case: no task group and no arrays.
            let outcome = await Self.run(phase, of: modules[0], within: limit)
            record(outcome)
            try settle(outcome, of: modules[0], in: phase)
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
            try settle(outcome, of: module, in: phase)
        }
    }

    /// Records `module` as started if `outcome` is a completed start, and
    /// throws ``Interruption/cancelled`` if the calling task is cancelled (a
    /// hook that failed because it saw the cancellation is not a failure),
    /// else the hook's failure.
    private func settle(_ outcome: HookOutcome, of module: HostedModule, in phase: LifecyclePhase) throws(Interruption) {
        if phase == .start, case .completed = outcome.result { started.append(module) }
        guard !Task.isCancelled else { throw .cancelled }
        switch outcome.result {
        case .failed(let error):
            throw .failed(module: outcome.module, phase: phase, error: error)
        case .timedOut:
            throw .failed(module: outcome.module, phase: phase, error: TimeLimitExceeded(limit: configuration.startTimeLimit ?? .zero))
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

    /// Calls every running module's reload hook, in start order. A failure
    /// is reported in the result and does not stop the others.
    @discardableResult
    public func reload() async -> [HookOutcome] {
        guard status.isRunning else { return [] }
        var outcomes: [HookOutcome] = []
        for module in started {
            outcomes.append(await Self.run(.reload, of: module, within: nil))
        }
        outcomes.forEach { record($0) }
        return outcomes
    }

    /// Stops a running module, within the stop time limit, and forgets it:
    /// its event handlers and services are gone before it stops.
    ///
    /// - Throws: ``RemovalError`` if it is not running, or running modules
    ///   come after it.
    @discardableResult
    public func remove(_ name: String) async throws(RemovalError) -> HookOutcome {
        guard let index = started.firstIndex(where: { $0.name == name }) else { throw .notRunning(name) }
        let dependents = started.filter { $0.descriptor.dependencies.contains(name) }.map(\.name)
        guard dependents.isEmpty else { throw .hasDependents(name, dependents: dependents) }
        let module = started.remove(at: index)
        shared.forget(name)
        let outcome = await stop(module)
        record(outcome)
        return outcome
    }

    /// Stops every running module in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit``, and forgets them. If the calling
    /// task is cancelled (a second SIGTERM in ``run()``), the modules not yet
    /// stopped are skipped.
    @discardableResult
    public func terminate() async -> [HookOutcome] {
        guard status.isRunning else { return [] }
        publish(.stopping)
        let stopping = started.reversed()
        started = []
        let outcomes = await stop(stopping)
        for plugin in plugins {
            plugin.library.close()
        }
        plugins = []
        publish(.stopped(failures: outcomes.filter(\.failedOrTimedOut)))
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
