import CSectionRegistry
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Delivers signals to a closure instead of their default action.
///
/// A self-pipe, not Dispatch signal sources: libdispatch on Linux installs
/// its handler once per process, so after a first `run()` handed a signal
/// back to `SIG_DFL`, a second run in the same process never saw it again.
/// Here every run installs its own `sigaction` handler, which does the one
/// async-signal-safe thing (write the signal number to a pipe), and a reader
/// thread passes each to `deliver`. One stream at a time per process: signal
/// dispositions are process-wide.
struct SignalStream {
    /// The signals ``ModuleHost/run()`` serves.
    static let served = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

    private let signals: [Int32]
    private let writeEnd: Int32
    /// Each signal's action before the stream took it, restored by
    /// ``close()``.
    private let previous: [sigaction]

    /// Takes over `signals` until ``close()``; `deliver` gets each one, on a
    /// thread of the stream's. When another library puts its handler over
    /// the stream's (Vapor's `app.execute()` does, through a Dispatch
    /// signal source), both hear each signal from then on, where the host
    /// would otherwise go deaf to it, or the library's server stop while
    /// the host runs on: a Dispatch source's handler is left in place and
    /// the stream listens through a Dispatch source of its own beside it
    /// (the library's source reads the signal from a signalfd, which takes
    /// it before any handler could); another handler is kept, the stream's
    /// put back, and the kept one called from the stream's. `replaced` is
    /// called, once a signal, when that happens. The stream looks once a
    /// second. `taken` is called,
    /// before this returns, for each signal that something else in the
    /// process had taken already (see ``isTaken(_:_:)``).
    ///
    /// - Throws: ``HostError/Code/signalsInUse`` if another stream has them.
    init(
        _ signals: [Int32], deliver: @escaping @Sendable (Int32) -> Void, replaced: @escaping @Sendable (Int32) -> Void = { _ in },
        taken: (Int32) -> Void = { _ in }
    ) throws(HostError) {
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "SectionRegistry: cannot make the signal pipe (errno \(errno))")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        writeEnd = ends[1]
        guard signalPipe.compareExchange(expected: -1, desired: writeEnd, ordering: .sequentiallyConsistent).exchanged else {
            Glibc.close(readEnd)
            Glibc.close(writeEnd)
            throw .signalsInUse
        }
        // A thread of its own, not Dispatch's: Dispatch's Swift overlay
        // is a library more to load and relocate, which a command-line
        // tool pays at every start.
        var action = Self.forwarding
        var previous = Array(repeating: sigaction(), count: signals.count)
        for (index, signalNumber) in signals.enumerated() { sigaction(signalNumber, &action, &previous[index]) }
        self.previous = previous
        for (signalNumber, action) in zip(signals, previous) where Self.isTaken(signalNumber, action) { taken(signalNumber) }
        let reader = SignalReader(readEnd: readEnd, signals: signals, deliver: deliver, replaced: replaced)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(reader).toOpaque()
        precondition(pthread_create(&thread, nil, { context in
            Unmanaged<SignalReader>.fromOpaque(context!).takeRetainedValue().readUntilClosed()
            return nil
        }, context) == 0, "SectionRegistry: cannot start the signal thread (errno \(errno))")
        pthread_detach(thread)
    }

    /// Whether `action`, found on `signalNumber` when the stream took it,
    /// says that something else in the process serves that signal: a
    /// handler (Dispatch installs one for a signal source, as a
    /// swift-service-lifecycle `ServiceGroup` with `gracefulShutdownSignals`
    /// makes), or SIGTERM ignored (how the group leaves it on Darwin). Other
    /// ignored signals are left out: a shell starts a background job with
    /// SIGINT ignored, `nohup` SIGHUP.
    static func isTaken(_ signalNumber: Int32, _ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }  // SIG_DFL
        let ignored = unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
        return !ignored || signalNumber == SIGTERM
    }

    /// The stream's action: the handler that writes to the pipe.
    static var forwarding: sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = forwardingHandler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        return action
    }

    /// Waits, a second at most, until another library's handler is put over
    /// the open stream's for `signalNumber`, then has the stream share the
    /// signal with it at once, not at its next look (up to a second later):
    /// for a library the host starts itself (a reloading configuration
    /// provider takes SIGHUP), so that both hear the signal from before the
    /// first module starts.
    static func shareOnceTaken(_ signalNumber: Int32) async {
        let clock = ContinuousClock()
        let limit = clock.now + .seconds(1)
        while clock.now < limit {
            var current = sigaction()
            if sigaction(signalNumber, nil, &current) == 0, !isForwarding(current) { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        // Byte 0 is no signal: it wakes the reader to look at the handlers.
        var look: UInt8 = 0
        let end = signalPipe.load(ordering: .sequentiallyConsistent)
        if end >= 0 { _ = write(end, &look, 1) }
    }

    /// Stops listening and gives each signal back the action it had before,
    /// forgetting any other library's handler it kept; a signal whose
    /// handler another library installed since (a Dispatch source's) stays
    /// that library's.
    func close() {
        app_modules_unchain_handlers()
        app_modules_stop_listening_through_dispatch()
        for (signalNumber, action) in zip(signals, previous) {
            var current = sigaction()
            guard sigaction(signalNumber, nil, &current) == 0, isForwarding(current) else { continue }
            var action = action
            sigaction(signalNumber, &action, nil)
        }
        signalPipe.store(-1, ordering: .sequentiallyConsistent)
        Glibc.close(writeEnd)
    }
}

/// The signal thread's work: passes each signal number read from the pipe
/// to `deliver`, until the write end is closed.
private final class SignalReader {
    let readEnd: Int32
    let signals: [Int32]
    let deliver: @Sendable (Int32) -> Void
    let replaced: @Sendable (Int32) -> Void
    /// The signals whose handler was replaced, and reported, already.
    private var reported: [Int32] = []
    /// The signals heard through a Dispatch source beside another library's.
    private var listensThroughDispatch: [Int32] = []

    init(readEnd: Int32, signals: [Int32], deliver: @escaping @Sendable (Int32) -> Void, replaced: @escaping @Sendable (Int32) -> Void) {
        self.readEnd = readEnd
        self.signals = signals
        self.deliver = deliver
        self.replaced = replaced
    }

    /// Makes both the stream and the library hear each signal whose handler
    /// another library put over the stream's (see ``SignalStream/init(_:deliver:replaced:taken:)``),
    /// and reports it the first time.
    private func shareReplacedHandlers() {
        for signalNumber in signals where !listensThroughDispatch.contains(signalNumber) {
            var current = sigaction()
            guard sigaction(signalNumber, nil, &current) == 0, !isForwarding(current) else { continue }
            if app_modules_handler_is_dispatchs(&current) != 0,
               app_modules_listen_through_dispatch(signalNumber, forwardingHandler) == 0 {
                listensThroughDispatch.append(signalNumber)
            } else {
                app_modules_chain_handler(signalNumber, &current)
                var forwarding = SignalStream.forwarding
                sigaction(signalNumber, &forwarding, nil)
            }
            guard !reported.contains(signalNumber) else { continue }
            reported.append(signalNumber)
            replaced(signalNumber)
        }
    }

    func readUntilClosed() {
        // This thread takes the signals: Dispatch's threads block them, and
        // so may the main thread, whose mask a process inherits from the
        // thread that started it (a Swift program's concurrency thread
        // blocks SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in signals { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        var signalNumber: UInt8 = 0
        var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            // Once a second with nothing to read, the handlers are looked at.
            let polled = poll(&ready, 1, 1000)
            if polled == 0 {
                shareReplacedHandlers()
                continue
            }
            if polled < 0 && errno == EINTR { continue }
            // read returns 0 once close() has closed the write end.
            guard read(readEnd, &signalNumber, 1) == 1 else { break }
            // 0: shareOnceTaken(_:) asks for a look now.
            if signalNumber == 0 { shareReplacedHandlers() } else { deliver(Int32(signalNumber)) }
        }
        Glibc.close(readEnd)
    }
}

/// The write end of the pipe of the open ``SignalStream``, or -1.
private let signalPipe = Atomic<Int32>(-1)

/// The handler as installed, to tell it from another library's.
private let forwardingHandler: @convention(c) (Int32) -> Void = forwardToSignalPipe

/// Whether `action` is the stream's.
private func isForwarding(_ action: sigaction) -> Bool {
    guard action.sa_flags & SA_SIGINFO == 0, let handler = action.__sigaction_handler.sa_handler else { return false }
    return unsafeBitCast(handler, to: UnsafeRawPointer.self) == unsafeBitCast(forwardingHandler, to: UnsafeRawPointer.self)
}

/// The signal handler (and what a Dispatch source of the stream's calls):
/// async-signal-safe, it calls the handler another library had put in its
/// place, if the stream took the signal back from one, then loads an
/// atomic and writes one byte. The library's first: once
/// the byte is written the host may stop, and its stream forget that
/// handler, before a handler called after would have run.
private func forwardToSignalPipe(_ signalNumber: Int32) {
    let savedErrno = errno
    app_modules_call_chained_handler(signalNumber)
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    let writeEnd = signalPipe.load(ordering: .sequentiallyConsistent)
    if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
    errno = savedErrno
}
