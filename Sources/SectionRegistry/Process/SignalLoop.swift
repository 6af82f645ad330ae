import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// Launches the modules, then serves signals until the process should
    /// end:
    ///
    /// - SIGTERM, SIGINT: graceful shutdown, modules stopped in reverse start
    ///   order, each within ``HostConfiguration/stopTimeLimit``; a second
    ///   SIGTERM or SIGINT during shutdown skips the modules not yet stopped.
    /// - SIGHUP: ``reload()``.
    /// - SIGUSR1, SIGUSR2: a broadcast of the event mapped in
    ///   ``HostConfiguration/userSignalEvents``, if any.
    ///
    /// The signals are taken over before launch, so none is lost while the
    /// modules start, and handed back to their default action on return.
    ///
    /// - Returns: how each module stopped.
    /// - Throws: ``LaunchError`` if launch fails (nothing is left running).
    @discardableResult
    public func run() async throws(LaunchError) -> [HookOutcome] {
        let signals = SignalStream([SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2])
        defer { signals.close() }
        try await launch()
        var shutdown: Task<[HookOutcome], Never>?
        for await signal in signals.stream {
            switch signal {
            case SIGTERM, SIGINT:
                if let shutdown {
                    configuration.log("SectionRegistry: second signal \(signal), skipping the modules not stopped yet")
                    shutdown.cancel()
                } else {
                    configuration.log("SectionRegistry: signal \(signal), stopping modules in reverse start order")
                    let endOfSignals = signals.continuation
                    shutdown = Task {
                        defer { endOfSignals.finish() }
                        return await terminate()
                    }
                }
            case SIGHUP where shutdown == nil:
                configuration.log("SectionRegistry: SIGHUP, reloading")
                await reload()
            case SIGUSR1 where shutdown == nil, SIGUSR2 where shutdown == nil:
                if let event = configuration.userSignalEvents[signal == SIGUSR1 ? .usr1 : .usr2] {
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

/// Delivers signals as an async sequence, through Dispatch, instead of
/// their default action.
private struct SignalStream {
    let stream: AsyncStream<Int32>
    let continuation: AsyncStream<Int32>.Continuation
    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        self.continuation = continuation
        self.signals = signals
        sources = signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            return source
        }
    }

    /// Stops listening and restores each signal's default action.
    func close() {
        continuation.finish()
        for source in sources { source.cancel() }
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
    }
}
