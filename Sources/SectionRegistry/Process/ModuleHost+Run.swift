#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// Launches the modules, runs their long-running work, then stops them
    /// when the process should end: the host as a long-lived service.
    ///
    /// **Cancellation is graceful shutdown.** Cancelling the task that runs
    /// `run()` does what ``terminate()`` does: each module's
    /// ``AppModule/run(_:)`` is drained, in reverse start order, then every
    /// started module is stopped in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit``, and `run()` returns only when
    /// they are. The stop hooks are not cut short by the caller's
    /// cancellation (a hook awaiting `Task.sleep` or I/O finishes; only its
    /// time limit ends it). Cancelled before or during launch, no further
    /// hook is called (the running one is cancelled), and the modules that
    /// started are stopped the same way. Cancelled during a shutdown (a
    /// `ServiceGroup` past its `maximumGracefulShutdownDuration`), the
    /// shutdown is cut short, as by a second SIGTERM.
    ///
    /// **Signals**, unless ``HostConfiguration/servesSignals`` is off (when a
    /// supervisor owns them), each acted on at once, during launch too:
    ///
    /// - SIGTERM, SIGINT: graceful shutdown, as for cancellation. During
    ///   launch, the launch is cancelled: the running hook is cancelled and
    ///   no further one is called. A second SIGTERM or SIGINT cuts shutdown
    ///   short: the stop hook running is cancelled and left behind, the
    ///   modules not yet stopped are skipped, and the last log line says
    ///   which.
    /// - SIGHUP: ``reload()``, in its turn.
    /// - SIGUSR1, SIGUSR2: a broadcast of the event mapped in
    ///   ``HostConfiguration/userSignalEvents``, if any, in a task of its
    ///   own: a slow handler delays no other signal. At shutdown such a
    ///   broadcast is cancelled, and `run()` returns once it has ended.
    ///
    /// The signals are taken over before launch and given back the action
    /// they had on return. Signal dispositions belong to the process: one
    /// `run()` at a time may serve them. If something else had taken
    /// SIGTERM already (a `ServiceGroup` with `gracefulShutdownSignals`, which
    /// runs the host as a service: set `servesSignals` to false there), the
    /// host logs a warning naming the signal and the fix. If another library replaces
    /// the handler of one while the host serves it (Vapor's `app.execute()`
    /// does, through a Dispatch signal source), within a second both hear
    /// each signal from then on, and a warning names the signal and the fix:
    /// the process never goes deaf to SIGTERM.
    ///
    /// Its shape fits swift-service-lifecycle's `ServiceGroup`:
    /// `func run() async throws { try await host.run() }` (see
    /// <doc:Lifecycle>). ``waitUntilRunning()`` and
    /// ``statusUpdates`` say when the modules are ready; after `run()`
    /// returns, ``status`` says how they stopped.
    ///
    /// - Throws: ``HostError`` if launch fails (nothing is left running;
    ///   never ``HostError/Code/cancelled``: a cancelled launch returns), if a
    ///   module's `run` fails (``HostError/Code/moduleFailed`` in phase
    ///   ``LifecyclePhase/run``, thrown once every module has stopped), or
    ///   ``HostError/Code/signalsInUse`` if another `run()` serves the
    ///   signals.
    public nonisolated func run() async throws(HostError) {
        let launch = try await servingSignals(stop: { self.requestStop(.signal($0)) }) {
            // In a ServiceGroup (the ServiceLifecycle trait), the group's
            // graceful shutdown is the host's; elsewhere this only runs the
            // body.
            await onGracefulShutdown({ self.requestStop(.gracefulShutdown) }) {
                await withTaskCancellationHandler {
                    await watchingConfiguration {
                        do throws(HostError) {
                            try await self.launch()
                        } catch {
                            return error.code == .cancelled ? nil : error
                        }
                        _ = await self.waitUntilFinal()
                        return nil
                    }
                } onCancel: {
                    // During a shutdown, a cancellation escalates as a
                    // second signal does: a ServiceGroup past its
                    // maximumGracefulShutdownDuration cancels its services.
                    self.requestStop(.cancelled)
                }
            }
        }
        if let launch { throw launch }
        if let failedRun = await failedRunError() { throw failedRun }
    }

    /// The error of the first `run` that failed, if one did: what stopped
    /// the host.
    func failedRunError() -> HostError? {
        guard let failure = failedRuns.withLock({ $0.first }), case .failed(let error) = failure.result else { return nil }
        return .runFailed(failure.module, error: error, outcomes: shutdownOutcomes, stopped: stoppedModules.map(\.name))
    }

    /// Runs `body` while the process's signals are served (unless
    /// ``HostConfiguration/servesSignals`` is off): SIGTERM and SIGINT go
    /// to `stop`, the others are answered as ``run()`` says.
    ///
    /// - Throws: ``HostError/Code/signalsInUse`` if another host serves them.
    nonisolated func servingSignals<Result>(
        stop: @escaping @Sendable (Int32) -> Void, _ body: () async -> Result
    ) async throws(HostError) -> Result {
        let (signals, signalSink) = AsyncStream.makeStream(of: Int32.self)
        let stream = configuration.servesSignals
            ? try SignalStream(SignalStream.served) { signalSink.yield($0) } replaced: { [shared, configurationTakesSIGHUP] signal in
                // A reloading configuration provider the host runs hears SIGHUP
                // beside it, as it should.
                if signal == SIGHUP && configurationTakesSIGHUP { return }
                shared.log(.warning, "SectionRegistry: another library put its handler of \(signalName(signal)) over the host's (Vapor's "
                    + "app.execute() does): both hear each \(signalName(signal)) from now on, and that library may stop its work before "
                    + "the host drains it. Start that library without its own signal handling (Vapor: app.server.start(address:) in a "
                    + "module's run, see Servers.md), so that the host alone drains it in its turn.")
            } taken: { signal in
                shared.log(.warning, "SectionRegistry: \(signalName(signal)) was taken in this process before the host began to serve it "
                    + "(a ServiceGroup with gracefulShutdownSignals, or another library): the host serves it now, and that owner may not hear "
                    + "it. Under a ServiceGroup, set HostConfiguration.servesSignals to false: the group's graceful shutdown stops the host.")
            }
            : nil
        defer { stream?.close() }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.answer(signals, stop: stop) }
            defer { signalSink.finish() }
            return await body()
        }
    }

    /// Answers `signals` until the stream ends. The broadcasts they ask for
    /// run alongside, each in a task of its own: a shutdown cancels them,
    /// and one whose handler ignores that is left behind and reported when
    /// the stream ends, never waited for (a handler, like a hook, cannot
    /// hold up the exit).
    private nonisolated func answer(_ signals: AsyncStream<Int32>, stop: @Sendable (Int32) -> Void) async {
        let broadcasts = SignalBroadcasts()
        for await signal in signals {
            let name = signalName(signal)
            let stopping = shared.shutdown.hasBegun
            switch signal {
            case SIGTERM, SIGINT:
                stop(signal)
                broadcasts.cancelAll()
            case SIGHUP where !stopping:
                requestReload(because: name)
            case SIGUSR1 where !stopping, SIGUSR2 where !stopping:
                guard let event = configuration.userSignalEvents[signal == SIGUSR1 ? .usr1 : .usr2] else { continue }
                shared.log(.info, "SectionRegistry: \(name), broadcasting \(type(of: event))")
                broadcasts.start(name) { await self.broadcastIgnoringReport(event) }
            default:
                continue
            }
        }
        let leftBehind = broadcasts.cancelAll()
        if !leftBehind.isEmpty {
            shared.log(.warning, "SectionRegistry: the broadcast of \(leftBehind.joined(separator: ", ")) did not end when cancelled: left behind")
        }
    }

    /// Queues a reload that nobody waits for, as SIGHUP and a change of the
    /// configuration ask: logged with its `cause`, skipped once the host
    /// stops.
    nonisolated func requestReload(because cause: String) {
        guard !shared.shutdown.hasBegun else { return }
        shared.log(.info, "SectionRegistry: \(cause), reloading")
        let id = requests.makeID()
        submit(id, .reload) { host in _ = await host.reloadNow(request: id) }
    }

    #if !Configuration
    /// Without the `Configuration` trait, there is no configuration to
    /// watch: only `body` (Process/ModuleHost+Configuration.swift).
    @inline(__always)
    nonisolated func watchingConfiguration<Result: Sendable>(_ body: () async -> Result) async -> Result {
        await body()
    }

    /// Whether a configuration provider the host runs takes SIGHUP too.
    nonisolated var configurationTakesSIGHUP: Bool { false }
    #endif

    private nonisolated func broadcastIgnoringReport(_ event: some ModuleEvent) async {
        _ = await broadcast(event)
    }
}

/// The broadcasts that signals asked for, while they run.
///
/// Tasks of their own, not children of ``ModuleHost/run()``'s task, for the
/// reason ``PhaseRun`` gives: a handler that ignores its cancellation must
/// be left behind, and a child task cannot be.
///
/// A list of structs, not a dictionary of tuples by id: making that
/// dictionary's type checks `Int: Hashable` and `Never: Error` (the task's),
/// each a search of every loaded image's conformance records (about 0.19 M
/// instructions) that a tool paid at each invocation. A few broadcasts run
/// at a time.
private final class SignalBroadcasts: Sendable {
    private struct Broadcast {
        let id: Int
        let signal: String
        let task: Task<Void, Never>
    }

    private struct Running {
        var broadcasts: [Broadcast] = []
        var next = 0
    }

    private let running = Locked(Running())

    /// Runs `broadcast`, asked for by the signal named `signal`.
    func start(_ signal: String, _ broadcast: @escaping @Sendable () async -> Void) {
        running.withLock { running in
            let id = running.next
            running.next += 1
            running.broadcasts.append(Broadcast(id: id, signal: signal, task: Task {
                await broadcast()
                self.running.withLock { $0.broadcasts.removeAll { $0.id == id } }
            }))
        }
    }

    /// Cancels every broadcast still running.
    ///
    /// - Returns: the signals whose broadcasts still run.
    @discardableResult
    func cancelAll() -> [String] {
        let broadcasts = running.withLock { $0.broadcasts }
        for broadcast in broadcasts { broadcast.task.cancel() }
        return broadcasts.map(\.signal)
    }
}
