/// Why a ``ModuleHost`` stops: the first stop asked for, which
/// ``HostStatus/stopping(_:)`` and ``ModuleHost/stopReason`` carry.
///
/// A program that stops for its own reasons tells them apart from an
/// operator's: a command-line tool exits 130 after SIGINT and 143 after
/// SIGTERM, 0 after its own ``ModuleHost/terminate()``.
///
/// ```swift
/// if case .signal(SIGINT) = host.stopReason { ... }
/// ```
public enum StopReason: Sendable, Hashable, CustomStringConvertible {
    /// A signal ``ModuleHost/run()`` serves: SIGTERM or SIGINT, by number.
    case signal(Int32)
    /// ``ModuleHost/terminate()`` from the program (outside the modules).
    case terminate
    /// A module asked: ``ModuleContext/requestShutdown()``, or
    /// ``ModuleHost/terminate()`` from inside the host (a hook, a handler,
    /// a `run`). The module, when the host can tell which one.
    case moduleRequest(String?)
    /// The ``AppModule/run(_:)`` of the module named failed.
    case runFailed(String)
    /// The task running ``ModuleHost/run()`` was cancelled.
    case cancelled
    /// The swift-service-lifecycle `ServiceGroup` running the host shuts
    /// down gracefully (the `ServiceLifecycle` trait).
    case gracefulShutdown

    /// The exit status a program conventionally ends with after this
    /// signal: 128 plus its number (130 for SIGINT, 143 for SIGTERM); `nil`
    /// for any other reason.
    public var signalExitStatus: Int32? {
        if case .signal(let number) = self { 128 + number } else { nil }
    }

    /// Whether this stop, asked for during a shutdown, cuts it short: a
    /// signal (someone pressed Ctrl-C again, a supervisor ran out of
    /// patience) or the cancellation of the task running the host do;
    /// another ``ModuleHost/terminate()``, a module's request or a `run`'s
    /// failure join the shutdown under way.
    var escalates: Bool {
        switch self {
        case .signal, .cancelled: true
        case .terminate, .moduleRequest, .runFailed, .gracefulShutdown: false
        }
    }

    public var description: String {
        switch self {
        case .signal(let number): signalName(number)
        case .terminate: "terminate()"
        case .moduleRequest(let module?): "shutdown requested by module '\(module)'"
        case .moduleRequest(nil): "shutdown requested by a hook"
        case .runFailed(let module): "module '\(module)' failed in run"
        case .cancelled: "the task running the host was cancelled"
        case .gracefulShutdown: "the ServiceGroup's graceful shutdown"
        }
    }
}

#if Tracing || Metrics
extension StopReason {
    /// The reason as a span's attribute or a metric's dimension: its
    /// case's name.
    var name: String {
        switch self {
        case .signal: "signal"
        case .terminate: "terminate"
        case .runFailed: "runFailed"
        case .moduleRequest: "moduleRequest"
        case .cancelled: "cancelled"
        case .gracefulShutdown: "gracefulShutdown"
        }
    }
}
#endif
