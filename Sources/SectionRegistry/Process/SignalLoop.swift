import Dispatch
import Synchronization
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
    /// Signal dispositions belong to the process: one `run()` at a time may
    /// serve them (a second concurrent one stops with a precondition failure).
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

/// Delivers signals as an async sequence instead of their default action.
///
/// A self-pipe, not Dispatch signal sources: libdispatch on Linux installs
/// its handler once per process, so after a first `run()` handed a signal
/// back to `SIG_DFL`, a second run in the same process never saw it again.
/// Here every run installs its own `sigaction` handler, which does the one
/// async-signal-safe thing (write the signal number to a pipe), and a reader
/// thread turns the bytes into stream elements. One stream at a time per
/// process: signal dispositions are process-wide.
private struct SignalStream {
    let stream: AsyncStream<Int32>
    let continuation: AsyncStream<Int32>.Continuation
    private let signals: [Int32]
    private let writeEnd: Int32

    init(_ signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        self.continuation = continuation
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "SectionRegistry: cannot make the signal pipe (errno \(errno))")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        writeEnd = ends[1]
        precondition(signalPipe.compareExchange(expected: -1, desired: writeEnd, ordering: .sequentiallyConsistent).exchanged,
                     "SectionRegistry: only one ModuleHost.run() at a time serves the process's signals")
        DispatchQueue(label: "SectionRegistry.signals").async {
            var signalNumber: UInt8 = 0
            // read returns 0 once close() has closed the write end.
            while read(readEnd, &signalNumber, 1) == 1 { continuation.yield(Int32(signalNumber)) }
            Glibc.close(readEnd)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = forwardToSignalPipe
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for signalNumber in signals { sigaction(signalNumber, &action, nil) }
    }

    /// Stops listening and restores each signal's default action.
    func close() {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        signalPipe.store(-1, ordering: .sequentiallyConsistent)
        Glibc.close(writeEnd)
        continuation.finish()
    }
}

/// The write end of the pipe of the open ``SignalStream``, or -1.
private let signalPipe = Atomic<Int32>(-1)

/// The signal handler: async-signal-safe, it only loads an atomic and writes
/// one byte.
private func forwardToSignalPipe(_ signalNumber: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    let writeEnd = signalPipe.load(ordering: .sequentiallyConsistent)
    if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
    errno = savedErrno
}
