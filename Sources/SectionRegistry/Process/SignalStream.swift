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

    /// Takes over `signals` until ``close()``; `deliver` gets each one, on a
    /// thread of the stream's.
    ///
    /// - Throws: ``HostError/Code/signalsInUse`` if another stream has them.
    init(_ signals: [Int32], deliver: @escaping @Sendable (Int32) -> Void) throws(HostError) {
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
        let reader = SignalReader(readEnd: readEnd, signals: signals, deliver: deliver)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(reader).toOpaque()
        precondition(pthread_create(&thread, nil, { context in
            Unmanaged<SignalReader>.fromOpaque(context!).takeRetainedValue().readUntilClosed()
            return nil
        }, context) == 0, "SectionRegistry: cannot start the signal thread (errno \(errno))")
        pthread_detach(thread)
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
    }
}

/// The signal thread's work: passes each signal number read from the pipe
/// to `deliver`, until the write end is closed.
private final class SignalReader {
    let readEnd: Int32
    let signals: [Int32]
    let deliver: @Sendable (Int32) -> Void

    init(readEnd: Int32, signals: [Int32], deliver: @escaping @Sendable (Int32) -> Void) {
        self.readEnd = readEnd
        self.signals = signals
        self.deliver = deliver
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
        // read returns 0 once close() has closed the write end.
        while read(readEnd, &signalNumber, 1) == 1 { deliver(Int32(signalNumber)) }
        Glibc.close(readEnd)
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
