/// Where a ``ModuleHost`` is in its life; ``ModuleHost/statusUpdates``
/// delivers each change.
public enum HostStatus: Sendable, CustomStringConvertible {
    /// Made, not launched.
    case idle
    /// Taking the modules through setUp, start and ready.
    case launching
    /// Every module is ready.
    case running
    /// Stopping the modules, in reverse start order, for the reason given
    /// (the first stop asked for).
    case stopping(StopReason)
    /// Every module is stopped; `failures` are the `run` hooks that failed
    /// (the first is why the host stopped, if one did) and the hooks that
    /// failed, timed out, were cut off or skipped on the way down.
    case stopped(failures: [HookOutcome])
    /// Launch failed or was cancelled; what had started was stopped again.
    case launchFailed(HostError)

    /// Whether no other status follows.
    public var isFinal: Bool {
        switch self {
        case .stopped, .launchFailed: true
        case .idle, .launching, .running, .stopping: false
        }
    }

    var isRunning: Bool {
        if case .running = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .idle: "idle"
        case .launching: "launching"
        case .running: "running"
        case .stopping(let reason): "stopping (\(reason))"
        case .stopped(let failures) where failures.isEmpty: "stopped"
        case .stopped(let failures): "stopped, with failures: " + failures.map(\.description).joined(separator: "; ")
        case .launchFailed(let error): "launch failed: \(error)"
        }
    }
}
