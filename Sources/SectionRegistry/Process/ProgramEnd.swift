/// How a program made of linked modules ends: its exit status, and the
/// message for standard error, if any. The one exit-status policy of every
/// entry point (``ModuleHost/main(configuration:)``,
/// ``ModuleHost/main(configuration:_:)``, and `main(command:)` under the
/// `ArgumentParser` trait, which is the second), told to users in
/// <doc:Lifecycle#Exit-statuses>.
struct ProgramEnd: Sendable, Equatable {
    var status: Int32
    var message: String?

    init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }

    /// What the program runs once its modules are launched.
    enum Kind {
        /// `main()`: the modules serve until a stop.
        case service
        /// `main { work }`: one piece of work, and what it returned or threw
        /// (`nil`: it never ran, or the shutdown left it behind).
        case command(Result<Int32, any Error>?)
    }

    /// The end of a program whose host reached `final` (stopped, or launch
    /// failed), having stopped for `stopReason`, after the `run` whose
    /// error is `failedRun` failed, if one did.
    ///
    /// | case | `main()` | `main { work }` |
    /// |---|---|---|
    /// | launch failed (not cancelled) | 1, the error | 1, the error |
    /// | stopped by SIGINT / SIGTERM | as below | 130 / 143 |
    /// | a `run` failed | 1, the error | 1, the error |
    /// | stopped cleanly | 0 | the work's status (0 if it was cancelled by a stop the modules asked for) |
    /// | stopped, not cleanly | 3 | 3 if the work returned 0 or was cancelled |
    /// | the work threw | | 1, its error |
    /// | the work was left behind | | 1 (the warning said it) |
    init(of entry: Kind, final: HostStatus, stopReason: StopReason?, failedRun: HostError? = nil) {
        let failures: [HookOutcome]
        switch final {
        case .launchFailed(let error) where error.code != .cancelled:
            self.init(status: 1, message: "\(error)")
            return
        case .launchFailed(let cancelled):
            failures = cancelled.rollback.filter(\.isFailure)
        case .stopped(let stopped):
            failures = stopped
        case .idle, .launching, .running, .stopping:
            failures = []  // not final: no entry point ends here
        }
        let clean: Int32 = failures.isEmpty ? 0 : 3
        guard case .command(let work) = entry else {
            self.init(status: failedRun == nil ? clean : 1, message: failedRun.map { "\($0)" })
            return
        }
        if let signalled = stopReason?.signalExitStatus {
            self.init(status: signalled)
        } else if let failedRun {
            self.init(status: 1, message: "\(failedRun)")
        } else if case .launchFailed = final {
            self.init(status: clean)  // a stop during launch: the work never ran
        } else {
            switch work {
            case .success(0)?:
                self.init(status: clean)
            case .success(let status)?:
                self.init(status: status)
            case .failure(let error)? where error is CancellationError && stopReason != nil:
                // Cancelled because the host stops (a module asked): a normal
                // shutdown, as under main().
                self.init(status: clean)
            case .failure(let error)?:
                self.init(status: 1, message: "\(error)")
            case nil:
                self.init(status: 1)  // left behind: the warning said it
            }
        }
    }
}
