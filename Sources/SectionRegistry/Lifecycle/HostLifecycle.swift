/// Where a ``ModuleHost`` is in its life, with the modules it runs while
/// it has any: one value, so that what is started, stopping or loading
/// cannot disagree. ``status`` is what the host publishes.
enum HostLifecycle: Sendable {
    case idle
    /// Taking the modules of `roster` through setUp, start and ready; no
    /// roster yet while their start plan is made.
    case launching(HostRoster?)
    case running(HostRoster)
    /// Stopping the modules (why: the host's ``ShutdownStage``); the roster
    /// is gone, so nothing joins it.
    case stopping
    case stopped(failures: [HookOutcome])
    case launchFailed(HostError)

    /// The modules, while launching or running.
    var roster: HostRoster? {
        switch self {
        case .launching(let roster): roster
        case .running(let roster): roster
        case .idle, .stopping, .stopped, .launchFailed: nil
        }
    }

    var isRunning: Bool {
        if case .running = self { true } else { false }
    }

    /// Changes the roster in place, while launching or running.
    ///
    /// - Returns: what `change` returns, or `nil` when there is no roster.
    @discardableResult
    mutating func changeRoster<Result, Failure: Error>(_ change: (inout HostRoster) throws(Failure) -> Result) throws(Failure) -> Result? {
        switch self {
        case .launching(var roster?):
            self = .idle  // the roster is changed in place, not copied
            defer { self = .launching(roster) }
            return try change(&roster)
        case .running(var roster):
            self = .idle
            defer { self = .running(roster) }
            return try change(&roster)
        case .idle, .launching(nil), .stopping, .stopped, .launchFailed:
            return nil
        }
    }

    /// The status the host publishes in this state, stopping for `reason`.
    func status(stoppingFor reason: @autoclosure () -> StopReason) -> HostStatus {
        switch self {
        case .idle: .idle
        case .launching: .launching
        case .running: .running
        case .stopping: .stopping(reason())
        case .stopped(let failures): .stopped(failures: failures)
        case .launchFailed(let error): .launchFailed(error)
        }
    }
}
