#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// Launches the modules, runs their long-running work, then stops them
    /// when the process should end: the host as a long-lived service.
    ///
    /// **Cancellation is graceful shutdown.** Cancelling the task that runs
    /// `run()` does what ``terminate()`` does: each module's
    /// ``AppModule/run(_:)`` is cancelled and awaited, then every started
    /// module is stopped in reverse start order, each within
    /// ``HostConfiguration/stopTimeLimit``, and `run()` returns only when
    /// they are. The stop hooks are not cut short by the caller's
    /// cancellation (a hook awaiting `Task.sleep` or I/O finishes; only its
    /// time limit ends it). Cancelled before or during launch, no further
    /// hook is called (the running one is cancelled), and the modules that
    /// started are stopped the same way.
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
    /// The signals are taken over before launch and handed back to their
    /// default action on return. Signal dispositions belong to the process:
    /// one `run()` at a time may serve them.
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
        let (signals, signalSink) = AsyncStream.makeStream(of: Int32.self)
        let stream = configuration.servesSignals
            ? try SignalStream(SignalStream.served) { signalSink.yield($0) }
            : nil
        defer { stream?.close() }
        let launch = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.serve(signals) }
                defer { signalSink.finish() }
                do throws(HostError) {
                    try await self.launch()
                } catch {
                    return error.code == .cancelled ? nil : error
                }
                _ = await self.waitUntilFinal()
                return nil
            }
        } onCancel: {
            self.stop(because: "the task running the host was cancelled")
        }
        if let launch { throw launch }
        if let failure = failedRuns.withLock({ $0.first }), case .failed(let error) = failure.result {
            throw .moduleFailed(failure.module, in: .run, error: error, rollback: await shutdownOutcomes)
        }
    }

    /// Serves `signals` until the stream ends; the broadcasts they ask for
    /// run alongside, and are cancelled when it ends.
    private nonisolated func serve(_ signals: AsyncStream<Int32>) async {
        await withDiscardingTaskGroup { broadcasts in
            for await signal in signals {
                let name = SignalStream.name(of: signal)
                switch signal {
                case SIGTERM, SIGINT:
                    if !stop(because: name) {
                        shared.log(.warning, "SectionRegistry: second \(name), cutting shutdown short: the stop hook running is cut off, the others are skipped")
                        requests.cutShort()
                    }
                case SIGHUP where !requests.stopRequested:
                    shared.log(.info, "SectionRegistry: \(name), reloading")
                    let id = requests.makeID()
                    submit(id, .reload) { host in _ = await host.reloadNow(request: id) }
                case SIGUSR1 where !requests.stopRequested, SIGUSR2 where !requests.stopRequested:
                    guard let event = configuration.userSignalEvents[signal == SIGUSR1 ? .usr1 : .usr2] else { continue }
                    shared.log(.info, "SectionRegistry: \(name), broadcasting \(type(of: event))")
                    broadcasts.addTask { await self.broadcastIgnoringReport(event) }
                default:
                    continue
                }
            }
            broadcasts.cancelAll()
        }
    }

    /// Asks the host to stop, once: the launch, load or reload under way is
    /// interrupted, and the modules are stopped in their turn.
    ///
    /// - Returns: whether this was the first stop asked for.
    @discardableResult
    nonisolated func stop(because reason: String) -> Bool {
        guard requests.requestStop(announce: {
            shared.log(.info, "SectionRegistry: \(reason), stopping modules in reverse start order")
        }) else { return false }
        submit(requests.makeID(), .terminate) { host in _ = await host.terminateNow() }
        return true
    }

    private nonisolated func broadcastIgnoringReport(_ event: some ModuleEvent) async {
        _ = await broadcast(event)
    }
}
