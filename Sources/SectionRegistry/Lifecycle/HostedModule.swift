/// A module a host created, with its context. A class: the host keeps it in
/// several lists and steps, and a copy is then one retain.
final class HostedModule: Sendable {
    let instance: any AppModule
    let context: ModuleContext
    /// Where its descriptor is in the host's ``HostRoster/modules``.
    let position: Int
    /// Whether it has long-running work: an ``AppModule/run(_:)`` of its own.
    let hasRunHook: Bool
    /// The hooks it writes, of its other phases: the host calls no other.
    private let writtenHooks: WrittenHooks
    /// Whether its `run` reports readiness (``AppModule/runReportsReady``):
    /// the modules after it wait for it.
    let reportsReadiness: Bool
    /// Its name, decoded once (the context's): a linked descriptor decodes
    /// its record's bytes on every call, and every hook's report names it.
    let name: String

    init(instance: any AppModule, context: ModuleContext, position: Int) {
        // The module asked first and stored last, so that it is moved in:
        // stored first, it was copied and the argument destroyed after.
        let hasRunHook = instance._hasRunHook
        self.hasRunHook = hasRunHook
        self.writtenHooks = WrittenHooks(instance)
        self.reportsReadiness = hasRunHook && instance.runReportsReady
        self.position = position
        self.name = context.moduleName
        if reportsReadiness { context.life.expectReadiness() }
        self.context = context
        self.instance = instance
    }

    /// Whether it is alive, and what it registered.
    var life: ModuleLife { context.life }

    /// Whether the module writes its hook of `phase`: the host calls no
    /// other.
    func writesHook(of phase: LifecyclePhase) -> Bool {
        switch phase {
        case .setUp: writtenHooks.contains(.setUp)
        case .start: writtenHooks.contains(.start)
        case .ready: writtenHooks.contains(.ready)
        case .run: hasRunHook
        case .reload: writtenHooks.contains(.reload)
        case .stop: writtenHooks.contains(.stop)
        }
    }

    /// Whether a record of its hook of `phase` that ended as `end` is
    /// reported (in outcomes, the log, the trace): only a hook it writes,
    /// and its start when its `run` failed or was not ready in time (the
    /// start phase waits for it even where the module writes no start).
    func reportsHook(of phase: LifecyclePhase, endingAs end: HookRecord.End) -> Bool {
        writesHook(of: phase) || (phase == .start && end != .completed && hasRunHook)
    }

    /// Calls the module's hook of `phase`, if it writes one. Always
    /// inlined: an async frame of its own per hook, and the hop back to its
    /// caller's executor after the hook, were a fifth of what a phase's
    /// runner paid per hook.
    @inline(__always)
    nonisolated(nonsending) func run(_ phase: LifecyclePhase) async throws {
        guard writesHook(of: phase) else { return }
        switch phase {
        case .setUp: try await instance.setUp(context)
        case .start: try await instance.start(context)
        case .ready: try await instance.ready(context)
        case .run: _ = try await instance.run(context)
        case .reload: try await instance.reload(context)
        case .stop: try await instance.stop(context)
        }
    }
}

/// Which of its hooks, but `run`, a module writes (``AppModule/_hasSetUpHook``
/// and the others): read once a module, each a witness chosen when its
/// conformance was compiled.
private struct WrittenHooks: OptionSet {
    let rawValue: UInt8

    static let setUp = WrittenHooks(rawValue: 1 << 0)
    static let start = WrittenHooks(rawValue: 1 << 1)
    static let ready = WrittenHooks(rawValue: 1 << 2)
    static let reload = WrittenHooks(rawValue: 1 << 3)
    static let stop = WrittenHooks(rawValue: 1 << 4)

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init(_ module: borrowing some AppModule) {
        var hooks: WrittenHooks = []
        if module._hasSetUpHook { hooks.insert(.setUp) }
        if module._hasStartHook { hooks.insert(.start) }
        if module._hasReadyHook { hooks.insert(.ready) }
        if module._hasReloadHook { hooks.insert(.reload) }
        if module._hasStopHook { hooks.insert(.stop) }
        self = hooks
    }
}
