#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// Launches the modules, then runs until the process should end, then
    /// stops them: the host as a long-lived service.
    ///
    /// **Cancellation is graceful shutdown.** Cancelling the task that runs
    /// `run()` stops every started module in reverse start order, each
    /// within ``HostConfiguration/stopTimeLimit``, and `run()` returns only
    /// when they are stopped. The stop hooks run in a task of their own, so
    /// they are not cut short by the caller's cancellation (a hook awaiting
    /// `Task.sleep` or I/O finishes; only its time limit ends it). Cancelled
    /// before or during launch, no further hook is called, and the modules
    /// that started are stopped the same way. Either way `run()` returns how
    /// the modules stopped and throws nothing: a supervisor that cancels its
    /// children sees a clean exit.
    ///
    /// **Signals**, unless ``HostConfiguration/servesSignals`` is off (when a
    /// supervisor owns them):
    ///
    /// - SIGTERM, SIGINT: graceful shutdown, as for cancellation; a second
    ///   SIGTERM or SIGINT during shutdown skips the modules not yet stopped
    ///   (and ends the hook that is stopping, unobserved).
    /// - SIGHUP: ``reload()``, while the signals go on being served; one
    ///   that arrives during a reload reloads again after it. A SIGTERM or
    ///   SIGINT during a reload begins shutdown at once: no further reload
    ///   hook is called, and the one running is not waited for.
    /// - SIGUSR1, SIGUSR2: a broadcast of the event mapped in
    ///   ``HostConfiguration/userSignalEvents``, if any.
    ///
    /// The signals are taken over before launch, so none is lost while the
    /// modules start (one that arrives then is served once launch ends), and
    /// handed back to their default action on return. Signal dispositions
    /// belong to the process: one `run()` at a time may serve them (a second
    /// concurrent one stops with a precondition failure).
    ///
    /// Its shape fits supervisors such as swift-service-lifecycle's
    /// `ServiceGroup`: `func run() async throws { try await host.run() }`
    /// (see Documentation/Lifecycle.md). ``waitUntilRunning()`` and ``statusUpdates`` say
    /// when the modules are ready.
    ///
    /// - Returns: how each module stopped, in the order stopped.
    /// - Throws: ``HostError`` if launch fails (nothing is left running);
    ///   never one of code ``HostError/Code/cancelled``, whose rollback it returns as
    ///   stop outcomes instead.
    @discardableResult
    public func run() async throws(HostError) -> [HookOutcome] {
        let (requests, sink) = AsyncStream.makeStream(of: StopRequest.self)
        let signals = configuration.servesSignals
            ? SignalStream([SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]) { sink.yield(.signal($0)) }
            : nil
        defer { signals?.close() }
        do throws(HostError) {
            try await launch()
        } catch {
            if error.code == .cancelled { return error.rollback }
            throw error
        }
        // The requests are served in a task of its own, which the caller's
        // cancellation does not reach: it arrives as one more request.
        let serving = Task { await serve(requests, finishing: sink) }
        return await withTaskCancellationHandler {
            await serving.value
        } onCancel: {
            sink.yield(.cancelled)
        }
    }

    /// Serves signals and the caller's cancellation until shutdown is done.
    private func serve(
        _ requests: AsyncStream<StopRequest>, finishing sink: AsyncStream<StopRequest>.Continuation
    ) async -> [HookOutcome] {
        var shutdown: Task<[HookOutcome], Never>?
        var reloading: Task<Void, Never>?
        for await request in requests {
            switch request {
            case .cancelled where shutdown == nil, .signal(SIGTERM) where shutdown == nil, .signal(SIGINT) where shutdown == nil:
                shared.log(.info, "SectionRegistry: \(request), stopping modules in reverse start order")
                // A reload under way calls no further hook, and the one it
                // runs is not waited for.
                reloading?.cancel()
                shutdown = Task {
                    defer { sink.finish() }
                    return await terminate()
                }
            case .signal(SIGTERM), .signal(SIGINT):
                shared.log(.warning, "SectionRegistry: second \(request), skipping the modules not stopped yet")
                shutdown?.cancel()
            case .signal(SIGHUP) where shutdown == nil:
                shared.log(.info, "SectionRegistry: SIGHUP, reloading")
                // In a task of its own, after the reload before it: the
                // requests go on being served meanwhile.
                reloading = Task { [previous = reloading] in
                    await withTaskCancellationHandler {
                        await previous?.value
                    } onCancel: {
                        previous?.cancel()
                    }
                    await reload()
                }
            case .signal(SIGUSR1) where shutdown == nil, .signal(SIGUSR2) where shutdown == nil:
                if let event = configuration.userSignalEvents[request == .signal(SIGUSR1) ? .usr1 : .usr2] {
                    await broadcastIgnoringReport(event)
                }
            default:
                break
            }
        }
        return await shutdown?.value ?? []
    }

    private func broadcastIgnoringReport(_ event: some ModuleEvent) async {
        _ = await broadcast(event)
    }
}

/// What ends a ``ModuleHost/run()``, or asks it for something meanwhile.
private enum StopRequest: Sendable, Equatable, CustomStringConvertible {
    case signal(Int32)
    /// The task running the host was cancelled.
    case cancelled

    var description: String {
        switch self {
        case .signal(let number): "signal \(number)"
        case .cancelled: "the task running the host was cancelled"
        }
    }
}
