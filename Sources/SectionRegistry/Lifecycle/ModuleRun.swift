/// A module's ``AppModule/run(_:)``, in a task of the host's that lives
/// until the module stops.
///
/// A task of its own per module, not a child in one task group, because a
/// module's `run` ends alone when it is removed or its plugin unloaded, and
/// Swift cannot cancel one child of a group. The host keeps every one,
/// ends it before the module's stop hook and waits for it: none outlives
/// the host, unless it ignores its cancellation (then it is reported cut off).
final class ModuleRun: Sendable {
    let module: HostedModule
    private let task: Task<Void, Never>
    private let ended: OneShot<Void>
    private let start: ContinuousClock.Instant

    /// Starts `module`'s `run`, in a task that carries `origin` (so that
    /// the host knows a request from it); `failed` is called if it throws
    /// while not cancelled.
    init(_ module: HostedModule, origin: RequestOrigin, failed: @escaping @Sendable (HookOutcome) -> Void) {
        let ended = OneShot<Void>()
        let start = ContinuousClock.now
        self.module = module
        self.ended = ended
        self.start = start
        task = Task {
            await RequestOrigin.$current.withValue(origin) {
                do {
                    try await module.run(.run)
                } catch where !Task.isCancelled {
                    failed(HookOutcome(module: module.name, phase: .run, result: .failed(error), duration: start.duration(to: .now), start: start))
                } catch {
                    // It gave way to its cancellation: that is how a run ends.
                }
            }
            ended.fulfil(())
        }
    }

    /// Stops waiting for this run: it counts as cut off if it has not
    /// returned yet (a second stop).
    func cutOff() {
        ended.expire()
    }

    /// Cancels `runs` and waits until each has returned or `deadline` has
    /// passed. A run in `notAwaited` is cancelled but not waited for: it
    /// waits for the request that ends it.
    ///
    /// - Returns: those that had not returned by then, cut off.
    static func end(_ runs: [ModuleRun], by deadline: ContinuousClock.Instant, notAwaited: ModuleLife?) async -> [HookOutcome] {
        for run in runs { run.task.cancel() }
        var cutOff: [HookOutcome] = []
        for run in runs where run.module.life !== notAwaited {
            if await run.ended.value(within: max(.zero, ContinuousClock.now.duration(to: deadline))) == nil {
                cutOff.append(HookOutcome(module: run.module.name, phase: .run, result: .cutOff, duration: run.start.duration(to: .now), start: run.start))
            }
        }
        return cutOff
    }
}
