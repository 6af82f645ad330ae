/// Runs the modules of a registry: launches them in dependency order,
/// dispatches events to them, and stops them in reverse order.
///
/// ```swift
/// let host = ModuleHost(registry: try ModuleRegistry.linked())
/// try await host.run()      // launch, then serve signals until SIGTERM or SIGINT
/// ```
///
/// One host launches once. Event dispatch (``broadcast(_:)``,
/// ``firstHandler(for:)``, ``gather(_:)``) does not go through the actor:
/// many tasks may dispatch at once, alongside launch, removal and shutdown.
public actor ModuleHost {
    /// A module the host created, with its context.
    struct HostedModule: Sendable {
        let descriptor: ModuleDescriptor
        let instance: any AppModule
        let context: ModuleContext

        var name: String { descriptor.name }

        func run(_ phase: LifecyclePhase) async throws {
            switch phase {
            case .setUp: try await instance.setUp(context)
            case .start: try await instance.start(context)
            case .ready: try await instance.ready(context)
            case .reload: try await instance.reload(context)
            case .stop: try await instance.stop(context)
            }
        }
    }

    enum Status {
        case idle, launching, running, stopping, stopped
    }

    /// How this host runs its modules.
    public nonisolated let configuration: HostConfiguration
    @usableFromInline nonisolated let shared: HostState
    let registry: ModuleRegistry
    var status = Status.idle
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
    public func launch() async throws(LaunchError) {
        guard status == .idle else { throw .alreadyLaunched }
        status = .launching
        let order: [ModuleDescriptor]
        do {
            order = try StartOrder.resolve(registry.modules.map(\.declaration), disabled: configuration.allDisabledModules)
                .map { registry.modules[$0] }
        } catch {
            status = .stopped
            throw .invalidOrder(error)
        }
        do {
            try await bringUp(order)
        } catch {
            status = .stopped
            throw error
        }
        status = .running
    }

    /// Creates the modules of `order`, a start order, and takes them through
    /// setUp, start and ready. If a hook fails, stops those of them that
    /// started, in reverse order, forgets them all, and throws; modules
    /// started before are left running.
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
        do {
            for module in modules {
                try await runOrThrow(.setUp, [module])
            }
            for step in StartSteps.group(order) {
                try await runOrThrow(.start, step.map { byName[$0.name]! })
            }
            for module in started[alreadyStarted...] {
                try await runOrThrow(.ready, [module])
            }
        } catch {
            let rollback = await stop(started[alreadyStarted...].reversed())
            started.removeSubrange(alreadyStarted...)
            for module in modules { shared.forget(module.name) }
            throw .moduleFailed(module: error.module, phase: error.phase, error: error.error, rollback: rollback)
        }
    }

    /// A hook that failed during ``bringUp(_:)``.
    private struct HookFailure: Error {
        let module: String
        let phase: LifecyclePhase
        let error: any Error
    }

    /// Runs `phase` of `modules`, alongside each other when there are
    /// several. Modules that start are recorded as started; throws the first
    /// failure in start order.
    private func runOrThrow(_ phase: LifecyclePhase, _ modules: [HostedModule]) async throws(HookFailure) {
        let outcomes = await run(phase, of: modules)
        hookOutcomes += outcomes
        for (module, outcome) in zip(modules, outcomes) {
            if phase == .start, case .completed = outcome.result { started.append(module) }
        }
        for outcome in outcomes {
            let failure: (any Error)?
            switch outcome.result {
            case .failed(let error): failure = error
            case .timedOut: failure = TimeLimitExceeded(limit: configuration.startTimeLimit ?? .zero)
            case .completed, .skipped: failure = nil
            }
            if let failure {
                throw HookFailure(module: outcome.module, phase: phase, error: failure)
            }
        }
    }

    private func run(_ phase: LifecyclePhase, of modules: [HostedModule]) async -> [HookOutcome] {
        let limit = phase == .start ? configuration.startTimeLimit : nil
        if modules.count == 1 { return [await Self.run(phase, of: modules[0], within: limit)] }
        return await withTaskGroup(of: (Int, HookOutcome).self) { group in
            for (index, module) in modules.enumerated() {
                group.addTask { (index, await Self.run(phase, of: module, within: limit)) }
            }
            var outcomes = [HookOutcome?](repeating: nil, count: modules.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0! }
        }
    }

    /// Runs one hook, timed; with a `limit`, in a task of its own that the
    /// host stops waiting for when the limit is up or the caller is cancelled.
    private static func run(_ phase: LifecyclePhase, of module: HostedModule, within limit: Duration?) async -> HookOutcome {
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
        return HookOutcome(module: module.name, phase: phase, result: result, duration: start.duration(to: clock.now))
    }

    // MARK: Reload, removal, shutdown

    /// Calls every running module's reload hook, in start order. A failure
    /// is reported in the result and does not stop the others.
    @discardableResult
    public func reload() async -> [HookOutcome] {
        guard status == .running else { return [] }
        var outcomes: [HookOutcome] = []
        for module in started {
            outcomes.append(await Self.run(.reload, of: module, within: nil))
        }
        hookOutcomes += outcomes
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
        hookOutcomes.append(outcome)
        return outcome
    }

    /// Stops every running module in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit``, and forgets them. If the calling
    /// task is cancelled (a second SIGTERM in ``run()``), the modules not yet
    /// stopped are skipped.
    @discardableResult
    public func terminate() async -> [HookOutcome] {
        guard status == .running else { return [] }
        status = .stopping
        let stopping = started.reversed()
        started = []
        let outcomes = await stop(stopping)
        for plugin in plugins {
            RegisteredSections.release(plugin.library.section)
            plugin.library.close()
        }
        plugins = []
        status = .stopped
        return outcomes
    }

    /// Forgets and stops `modules`, in the order given.
    func stop(_ modules: some Sequence<HostedModule>) async -> [HookOutcome] {
        var outcomes: [HookOutcome] = []
        for module in modules {
            shared.forget(module.name)
            outcomes.append(await stop(module))
        }
        hookOutcomes += outcomes
        return outcomes
    }

    private func stop(_ module: HostedModule) async -> HookOutcome {
        guard !Task.isCancelled else {
            return HookOutcome(module: module.name, phase: .stop, result: .skipped, duration: .zero)
        }
        return await Self.run(.stop, of: module, within: configuration.stopTimeLimit)
    }
}
