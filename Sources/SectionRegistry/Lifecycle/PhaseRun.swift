#if Tracing
import Tracing
#endif

/// The hooks of one phase: called one after the other (a step of modules
/// that start concurrently, alongside each other) in one task, the runner,
/// each within the phase's time limit.
///
/// Time limits cost nothing per hook: the runner notes when each hook
/// began, and one watchdog sleeps until the deadline of the hook that runs
/// now. When it wakes and that hook has returned, it sleeps again until the
/// deadline of the one running then; when it has not, the hook is over its
/// limit: the runner is cancelled (the hook sees the cancellation) and
/// abandoned, and a new runner goes on with the hooks after it, unless the
/// phase stops at a failure. A phase without a limit has no watchdog.
///
/// The runner is a task of its own, not a child of the task that waits for
/// the phase, because a hook that ignores cancellation must be left behind
/// without holding up the others: a child task cannot be. Everything else
/// waits in the task that owns the phase.
final class PhaseRun: Sendable {
    let phase: LifecyclePhase
    /// The modules, in the order their hooks are called.
    let modules: [HostedModule]
    /// For a phase that runs steps: where the step that begins at each
    /// position ends, `0` at the positions inside a step. `nil`: every hook
    /// is a step of its own.
    ///
    /// Positions, not an array of `Range<Int>`: the first such array of a
    /// process looks up `Int: Comparable` in every image's conformance
    /// records, more than a whole launch of a hundred modules costs here.
    private let stepEnds: [Int]?
    /// How long each hook may run; `nil`, as long as it takes.
    private let limit: Duration?
    /// How long the hook that runs when the phase is interrupted has to
    /// return before the host goes on without it.
    private let grace: Duration
    /// Whether a failure ends the phase: no hook after the step that failed
    /// is called.
    private let stopsAtFailure: Bool
    /// Called in the runner right before each module's hook.
    private let prepare: (@Sendable (HostedModule) -> Void)?
    /// Told in the runner right after each module's hook completes, as part
    /// of it (its time and its limit): the host, which begins the module's
    /// `run`, in the start phase. Weak: the phase stays in the host's log,
    /// and a strong reference would make a cycle that keeps the host alive.
    private weak let runs: (any RunBeginner)?
    private let state: Locked<State>
    #if Tracing
    /// The spans of the hooks begun, by position, until ``endSpans(_:)``
    /// ends them with the records; `closed` once it has.
    private let spans = Locked<(begun: [(position: Int, span: any Span)], closed: Bool)>(([], false))
    #endif

    /// Runs `phase` of `modules` in steps of `stepSizes` consecutive
    /// modules that run alongside each other (`nil`: one at a time).
    init(
        _ phase: LifecyclePhase, of modules: [HostedModule], stepSizes: [Int]? = nil,
        limit: Duration?, grace: Duration, stopsAtFailure: Bool, prepare: (@Sendable (HostedModule) -> Void)? = nil,
        beginsRunsIn runs: (any RunBeginner)? = nil
    ) {
        self.phase = phase
        self.prepare = prepare
        self.runs = runs
        self.modules = modules
        self.limit = limit
        self.grace = grace
        self.stopsAtFailure = stopsAtFailure
        if let stepSizes, stepSizes.contains(where: { $0 > 1 }) {
            var ends = [Int](repeating: 0, count: modules.count)
            var start = 0
            for size in stepSizes {
                ends[start] = start + size
                start += size
            }
            stepEnds = ends
        } else {
            stepEnds = nil
        }
        state = Locked(State(records: Array(repeating: HookRecord(start: .now), count: modules.count)))
    }

    /// The hook's place within its step, for the trace's lanes: `0` for
    /// a hook that runs alone.
    func lane(of position: Int) -> Int {
        guard let stepEnds else { return 0 }
        var start = position
        while stepEnds[start] == 0 { start -= 1 }
        return position - start
    }

    // MARK: The task that owns the phase

    /// Calls the hooks and returns what each did, once every hook has
    /// returned or the host has gone on without it. The calling task's
    /// cancellation (a second stop) cuts the phase short: the one place a
    /// phase gives up.
    func execute() async -> PhaseRecords {
        guard !modules.isEmpty else { return PhaseRecords(hooks: []) }
        return await withTaskCancellationHandler(operation: callHooks, onCancel: cutShort)
    }

    private func callHooks() async -> PhaseRecords {
        if runs == nil, !modules.contains(where: { $0.writesHook(of: phase) }) {
            return completeWithoutHooks()
        }
        startRunner(from: 0)
        while true {
            switch await nextEvent() {
            case .interrupted:
                continue  // the watchdog is armed again with the grace period
            case .expired:
                let next = state.withLock { state -> Int? in
                    guard !state.cutShort, state.interruptedAt == nil, !(stopsAtFailure && state.failed) else { return nil }
                    return state.running.upperBound
                }
                if let next, next < modules.count {
                    startRunner(from: next)
                    continue
                }
            case .finished:
                break
            }
            return state.withLock { state in
                state.done = true
                return PhaseRecords(hooks: state.records, errors: state.errors)
            }
        }
    }

    /// A phase whose hook no module writes, with no `run` to begin: every
    /// hook completes at once, in order, with no runner (a task, and a lock
    /// round trip and two clock readings a module, for nothing to call). A
    /// phase interrupted or cut short before it began calls none, as the
    /// runner would.
    private func completeWithoutHooks() -> PhaseRecords {
        let now = MonotonicInstant.now
        let (records, completed) = state.withLock { state in
            state.done = true
            let completed = state.interruptedAt == nil && !state.cutShort
            if completed {
                for position in state.records.indices {
                    state.records[position].start = now
                    state.records[position].end = .completed
                    state.records[position].ended = true
                }
            }
            return (PhaseRecords(hooks: state.records, errors: state.errors), completed)
        }
        if completed, let prepare {
            for module in modules { prepare(module) }
        }
        return records
    }

    /// Interrupts the phase: no further hook is called, the running hook is
    /// cancelled and has ``grace`` to return (``HookOutcome/Result/cutOff``
    /// after that). Nothing happens once the phase is done.
    func interrupt() {
        let runner = state.withLock { state -> Task<Void, Never>? in
            guard !state.done, state.interruptedAt == nil else { return nil }
            state.interruptedAt = .now
            state.post(.interrupted)
            return state.runner
        }
        runner?.cancel()
    }

    /// Cuts the phase short: the running hook is cancelled and left behind
    /// at once (``HookOutcome/Result/cutOff``), no further hook is called.
    private func cutShort() {
        let runner = state.withLock { state -> Task<Void, Never>? in
            guard !state.done, !state.cutShort else { return nil }
            state.cutShort = true
            state.abandonRunning(as: .cutOff, at: .now)
            state.post(.expired)
            return state.runner
        }
        runner?.cancel()
    }

    private func startRunner(from first: Int) {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let runner = Task { await self.runHooks(from: first, generation: generation) }
        let cancelled = state.withLock { state in
            state.runner = runner
            return state.interruptedAt != nil || state.cutShort
        }
        if cancelled { runner.cancel() }
    }

    /// The next thing that happened to the phase; meanwhile, the watchdog
    /// watches the running hook's deadline.
    private func nextEvent() async -> Event {
        let watched = state.withLock { $0.events.isEmpty && (limit != nil || $0.interruptedAt != nil) && !$0.cutShort }
        guard watched else { return await waitForEvent() }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.watch() }
            let event = await waitForEvent()
            group.cancelAll()
            return event
        }
    }

    private func waitForEvent() async -> Event {
        await suspend { continuation in
            state.withLock { state in
                if state.events.isEmpty {
                    state.waiter = continuation
                } else {
                    continuation.resume(returning: state.events.removeFirst())
                }
            }
        }
    }

    /// The watchdog: sleeps until the running hook's deadline, and leaves
    /// the hook behind if it is still running then.
    private func watch() async {
        while true {
            guard let deadline = state.withLock({ $0.deadline(limit: limit, grace: grace) }) else { return }
            do {
                try await Task.sleep(until: MonotonicInstant.Conversion().instant(deadline), clock: .continuous)
                // Woken long after the deadline: the process was starved
                // (every thread busy), so the hook may have finished and
                // just not been resumed yet. Look again once the threads
                // have run what was waiting: a hook is over its limit only
                // if it is still running then.
                if deadline.duration(to: .now) > Self.lateWake {
                    try await Task.sleep(for: Self.lateWake)
                }
            } catch {
                return  // the phase went on
            }
            let runner = state.withLock { state -> Task<Void, Never>?? in
                guard state.expire(at: .now, limit: limit, grace: grace) else { return nil }
                return .some(state.runner)
            }
            if let runner {
                runner?.cancel()
                return
            }
        }
    }

    /// How late the watchdog may wake before it suspects the process was
    /// starved rather than the hook slow.
    private static let lateWake = Duration.milliseconds(250)

    // MARK: The runner

    private func runHooks(from first: Int, generation: Int) async {
        // Whether to go on is asked once a hook: with the record of the one
        // that returned, in one round trip of the lock. The next hook's
        // start is a clock reading of its own, later than that end: spans
        // that share an instant would overlap in the trace by a rounding.
        // No check of the runner's cancellation: whoever cancels it (an
        // interruption, a cut, the watchdog) says so in the state first,
        // and `begin` reads it.
        var hooks = steps(from: first)
        // Loaded once a runner, not once a hook: a weak reference's load
        // is a call and a retain.
        let runs = runs
        var goesOn = state.withLock { $0.next(hooks.next(), at: .now, generation: generation, stopsAtFailure: stopsAtFailure) }
        while goesOn, let step = hooks.current {
            if step.count == 1 {
                prepare?(modules[step.lowerBound])
                let result = await callHook(at: step.lowerBound, runs: runs)
                let end = MonotonicInstant.now
                let following = hooks.next()
                goesOn = state.withLock { state in
                    state.finish(step.lowerBound, result, at: end, generation: generation)
                    return state.next(following, at: .now, generation: generation, stopsAtFailure: stopsAtFailure)
                }
            } else {
                await withTaskGroup(of: Void.self) { group in
                    for member in step {
                        group.addTask {
                            self.prepare?(self.modules[member])
                            let result = await self.callHook(at: member, runs: runs)
                            let end = MonotonicInstant.now
                            self.state.withLock { $0.finish(member, result, at: end, generation: generation) }
                        }
                    }
                }
                let following = hooks.next()
                goesOn = state.withLock { $0.next(following, at: .now, generation: generation, stopsAtFailure: stopsAtFailure) }
            }
        }
    }

    /// The steps from `first` on, one after the other.
    private func steps(from first: Int) -> Steps {
        Steps(ends: stepEnds, count: modules.count, position: first)
    }

    /// Walks the steps of a phase: ``next()`` moves to the following one.
    private struct Steps {
        let ends: [Int]?
        let count: Int
        var position: Int
        /// The step the runner is at.
        private(set) var current: Range<Int>?

        init(ends: [Int]?, count: Int, position: Int) {
            self.ends = ends
            self.count = count
            self.position = position
        }

        /// Moves to the step after the current one (the first one, at
        /// first), and returns it; `nil` past the last.
        mutating func next() -> Range<Int>? {
            if let current { position = current.upperBound }
            current = position < count ? position..<(ends?[position] ?? position + 1) : nil
            return current
        }
    }

    /// Calls the hook of the module at `position` (``call(_:_:runs:)``);
    /// under the `Tracing` trait, in its span, the task's span while it
    /// runs, so that what it does nests under it. The module's `run`
    /// begins outside that span: the run has a span of its own, beside the
    /// start hook's.
    @inline(__always)
    private nonisolated(nonsending) func callHook(at position: Int, runs: (any RunBeginner)?) async -> HookOutcome.Result {
        #if Tracing
        let module = modules[position]
        if module.writesHook(of: phase) {
            let span = module.context.host.spans.beginHook(module.name, at: module.position, phase)
            let closed = spans.withLock { spans in
                if !spans.closed { spans.begun.append((position, span)) }
                return spans.closed
            }
            // The phase was cut short between this hook's start and now.
            if closed { module.context.host.spans.endHook(span, outcome: "cutOff", clean: false, error: nil, at: .now) }
            let hook = await InstrumentationContext.withValue(span.context) { await Self.call(module, phase, runs: nil) }
            guard case .completed = hook, let runs else { return hook }
            do {
                try await runs.beginRun(of: module)
                return .completed
            } catch {
                return .failed(module.context.host.explained(error))
            }
        }
        #endif
        return await Self.call(modules[position], phase, runs: runs)
    }

    #if Tracing
    /// Ends the spans of the hooks begun, each with its record: how it
    /// ended and when, the host's verdict (a hook left behind ends its span
    /// when the host went on, not when, or if, it returns).
    func endSpans(_ records: PhaseRecords) {
        let begun = spans.withLock { spans in
            spans.closed = true
            defer { spans.begun = [] }
            return spans.begun
        }
        for (position, span) in begun {
            let record = records[position]
            let end = record.ended ? MonotonicInstant(nanoseconds: record.start.nanoseconds + record.elapsed) : .now
            modules[position].context.host.spans.endHook(span, outcome: record.end.name, clean: record.end == .completed,
                                                         error: records.error(at: position), at: end)
        }
    }
    #endif

    /// Calls the hook, then has `runs` begin the module's `run`, in the
    /// runner's own task and executor. The hook's switch is inlined here
    /// (``HostedModule/run(_:)``), and this function into the runner: a hook
    /// costs no frame of the host's own, and no hop back after it returns.
    @inline(__always)
    private nonisolated(nonsending) static func call(
        _ module: HostedModule, _ phase: LifecyclePhase, runs: (any RunBeginner)?
    ) async -> HookOutcome.Result {
        do {
            try await module.run(phase)
            try await runs?.beginRun(of: module)
            return .completed
        } catch {
            return .failed(module.context.host.explained(error))
        }
    }

    // MARK: State

    enum Event {
        /// The runner called every hook it was to call, and each returned.
        case finished
        /// The host went on without the running hook (time limit, grace
        /// period, or shutdown cut short).
        case expired
        /// The phase was interrupted; the running hook has its grace period.
        case interrupted
    }

    private struct State {
        var records: [HookRecord]
        /// The errors of the hooks that failed, apart from their records
        /// (see ``PhaseRecords``).
        var errors: [(position: Int, error: any Error)] = []
        /// The runner whose hooks count; a runner left behind has an older one.
        var generation = 0
        var runner: Task<Void, Never>?
        /// The hooks of the step running now, or that ran last.
        var running = 0..<0
        var runningSince = MonotonicInstant.now
        var failed = false
        var interruptedAt: MonotonicInstant?
        var cutShort = false
        var done = false
        var events: [Event] = []
        var waiter: Waiter<Event>?

        mutating func post(_ event: Event) {
            if let waiter {
                self.waiter = nil
                waiter.resume(returning: event)
            } else {
                events.append(event)
            }
        }

        /// Whether the runner of `generation` may call the hooks of `step`
        /// (`nil`: none is left); if not, the runner is done, and says so
        /// unless it was left behind.
        mutating func next(_ step: Range<Int>?, at now: MonotonicInstant, generation: Int, stopsAtFailure: Bool) -> Bool {
            if let step, begin(step, at: now, generation: generation, stopsAtFailure: stopsAtFailure) { return true }
            if generation == self.generation { post(.finished) }
            return false
        }

        /// Whether the runner of `generation` may call the hooks of `step`.
        mutating func begin(_ step: Range<Int>, at now: MonotonicInstant, generation: Int, stopsAtFailure: Bool) -> Bool {
            guard generation == self.generation, interruptedAt == nil, !cutShort, !(stopsAtFailure && failed) else { return false }
            running = step
            runningSince = now
            for position in step { records[position].start = now }
            return true
        }

        mutating func finish(_ position: Int, _ result: HookOutcome.Result, at now: MonotonicInstant, generation: Int) {
            guard generation == self.generation, !records[position].ended else { return }
            records[position].end(HookRecord.End(result), at: now)
            if case .failed(let error) = result {
                errors.append((position, error))
                failed = true
            }
        }

        /// When the watchdog should look next: the running hook's deadline
        /// (if none runs, the earliest the next can have), or the end of the
        /// grace period of an interruption, whichever is first.
        func deadline(limit: Duration?, grace: Duration) -> MonotonicInstant? {
            guard !cutShort, !done else { return nil }
            let hook = limit.map { limit in
                isRunning ? runningSince + limit : .now + limit
            }
            // Once interrupted, no hook begins: the grace period is for the
            // one running, if any.
            let interruption = isRunning ? interruptedAt.map { $0 + grace } : nil
            switch (hook, interruption) {
            case (let hook?, let interruption?): return min(hook, interruption)
            case (let hook?, nil): return hook
            case (nil, let interruption): return interruption
            }
        }

        private var isRunning: Bool {
            running.contains { !records[$0].ended }
        }

        /// Leaves the running hooks behind if their deadline has passed.
        mutating func expire(at now: MonotonicInstant, limit: Duration?, grace: Duration) -> Bool {
            guard isRunning, let deadline = deadline(limit: limit, grace: grace), now >= deadline else { return false }
            let overLimit = limit.map { now >= runningSince + $0 } ?? false
            abandonRunning(as: overLimit ? .timedOut : .cutOff, at: now)
            post(.expired)
            return true
        }

        /// Records the hooks still running as ended by `end` and leaves them
        /// behind: their runner's later results do not count.
        mutating func abandonRunning(as end: HookRecord.End, at now: MonotonicInstant) {
            for position in running where !records[position].ended {
                records[position].end(end, at: now)
                failed = true
            }
            generation += 1
        }
    }
}

/// Who begins a module's `run` right after its start hook returns: the host.
/// A protocol, not a closure: a closure stored as a phase's follow-up cost
/// every module two async frames of its own and a reabstraction thunk's two.
protocol RunBeginner: AnyObject, Sendable {
    /// Begins `module`'s `run` if it writes one, and waits until it is
    /// ready if it reports readiness; throws if it fails first.
    nonisolated(nonsending) func beginRun(of module: HostedModule) async throws
}
