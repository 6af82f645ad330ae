/// A module's ``AppModule/run(_:)``, in a task of the host's that lives
/// until the module stops.
///
/// A task of its own per module, not a child in one task group, because a
/// module's `run` ends alone when it is removed or its plugin unloaded, and
/// Swift cannot cancel one child of a group. The host keeps every one,
/// cancels it before the module's stop hook and waits for it: none outlives
/// the host, unless it ignores its cancellation (then it is reported cut off).
final class ModuleRun: Sendable {
    let module: HostedModule
    private let task: Task<Void, Never>
    private let ended: OneShot<Void>
    private let start: ContinuousClock.Instant

    /// Starts `module`'s `run`; `failed` is called if it throws while not
    /// cancelled.
    init(_ module: HostedModule, failed: @escaping @Sendable (HookOutcome) -> Void) {
        let ended = OneShot<Void>()
        let start = ContinuousClock.now
        self.module = module
        self.ended = ended
        self.start = start
        task = Task {
            do {
                try await module.run(.run)
            } catch where !Task.isCancelled {
                failed(HookOutcome(module: module.name, phase: .run, result: .failed(error), duration: start.duration(to: .now), start: start))
            } catch {
                // It gave way to its cancellation: that is how a run ends.
            }
            ended.fulfil(())
        }
    }

    /// Cancels `runs` and waits until each has returned or `deadline` has
    /// passed.
    ///
    /// - Returns: those that had not returned by then, cut off.
    static func end(_ runs: [ModuleRun], by deadline: ContinuousClock.Instant) async -> [HookOutcome] {
        for run in runs { run.task.cancel() }
        var cutOff: [HookOutcome] = []
        for run in runs where await run.ended.value(within: max(.zero, ContinuousClock.now.duration(to: deadline))) == nil {
            cutOff.append(HookOutcome(module: run.module.name, phase: .run, result: .cutOff, duration: run.start.duration(to: .now), start: run.start))
        }
        return cutOff
    }
}
