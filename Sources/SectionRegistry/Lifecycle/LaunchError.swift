/// Launch failed. Every module that had started was stopped again, in
/// reverse order, before this was thrown.
public enum LaunchError: Error, CustomStringConvertible {
    /// The modules cannot be ordered; none was created.
    case invalidOrder(OrderingError)
    /// `module` failed in `phase`; `rollback` is how the modules already
    /// started were stopped, in that order.
    case moduleFailed(module: String, phase: LifecyclePhase, error: any Error, rollback: [HookOutcome])
    /// The task that launched was cancelled; `rollback` is how the modules
    /// already started were stopped, in that order.
    case cancelled(rollback: [HookOutcome])
    /// A module's factory did not return a module; none of the modules
    /// being launched with it was created.
    case factoryFailed(FactoryError)
    /// The host was launched before.
    case alreadyLaunched

    public var description: String {
        switch self {
        case .invalidOrder(let error):
            return error.description
        case .moduleFailed(let module, let phase, let error, let rollback):
            return "SectionRegistry: module '\(module)' failed in \(phase): \(error) (\(Self.describe(rollback)))"
        case .cancelled(let rollback):
            return "SectionRegistry: launch cancelled (\(Self.describe(rollback)))"
        case .factoryFailed(let error):
            return error.description
        case .alreadyLaunched:
            return "SectionRegistry: this host was launched before; make a new ModuleHost"
        }
    }

    private static func describe(_ rollback: [HookOutcome]) -> String {
        rollback.isEmpty ? "no module had started" : "stopped again: \(rollback.map(\.module).joined(separator: ", "))"
    }
}

/// A module could not be removed; it is still running.
public enum RemovalError: Error, CustomStringConvertible {
    /// No running module has that name.
    case notRunning(String)
    /// Running modules come after it.
    case hasDependents(String, dependents: [String])

    public var description: String {
        switch self {
        case .notRunning(let name):
            "cannot remove '\(name)': no running module has that name"
        case .hasDependents(let name, let dependents):
            "cannot remove '\(name)': \(dependents.joined(separator: ", ")) come after it; remove them first"
        }
    }
}

/// A hook did not finish within its time limit; the host went on without it.
public struct TimeLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit it had.
    public let limit: Duration

    public var description: String {
        "did not finish within \(limit)"
    }
}
