extension ModuleHost {
    /// The whole `main` of a one-shot program made of linked modules, such
    /// as a command-line tool: discovers the modules, launches them, runs
    /// `work` while the process's signals are served, stops every module,
    /// and ends the process with the work's exit status.
    ///
    /// ```swift
    /// import SectionRegistry
    ///
    /// await ModuleHost.main { host in
    ///     let greeting = try host.service(Greeter.self).greeting(for: "world")
    ///     print(greeting)
    ///     return 0
    /// }
    /// ```
    ///
    /// **Signals.** SIGINT or SIGTERM during `work` cancels it. Once it has
    /// ended, or after ``HostConfiguration/cancelledWorkTimeLimit`` (1
    /// second) if it ignores its cancellation (it is then left behind, and
    /// a warning says so), every module is stopped and the process exits
    /// 130 after SIGINT, 143 after SIGTERM. A second signal ends that wait
    /// at once. During launch, the same signals cancel the launch (what
    /// started is stopped) with the same exit statuses. SIGHUP, SIGUSR1
    /// and SIGUSR2 are answered as ``run()`` says.
    ///
    /// **A stop the modules begin** (a module's
    /// ``ModuleContext/requestShutdown()``, or a `run` that failed)
    /// cancels `work` in the same way: the host is stopping under it. A
    /// module's request is a normal shutdown: a `CancellationError` the
    /// work throws then is no failure, and during the launch it ends the
    /// launch as SIGTERM does, with status 0 (3 if unclean).
    ///
    /// **Exit status**: what `work` returns once every module stopped
    /// cleanly (3 instead of 0 if one did not), 1 if the modules cannot be
    /// launched, `work` threw or a `run` failed, 130 or 143 after SIGINT or
    /// SIGTERM. The one table for both entry points:
    /// <doc:Lifecycle#Exit-statuses>.
    ///
    /// **Quiet.** The default configuration, ``HostConfiguration/commandLine``,
    /// logs warnings and errors only, unless ``HostLogHandler/levelVariable``
    /// asks for more: a normal run, and an interrupted one, write nothing to
    /// standard error. Standard output is flushed before the process exits.
    ///
    /// - Parameters:
    ///   - configuration: how the host runs the modules; its
    ///     ``HostConfiguration/logsLaunchFailure`` is ignored (a failed
    ///     launch is said once, as the final message).
    ///   - work: the program's work, given the running host; returns the
    ///     exit status. It runs outside the modules: it may call
    ///     ``terminate()`` (which cancels it, as a signal does).
    public static func main(
        configuration: HostConfiguration = .commandLine,
        _ work: @escaping @Sendable (ModuleHost) async throws -> Int32
    ) async -> Never {
        var configuration = configuration
        configuration.logsLaunchFailure = false  // said once, as the final message
        let ending: CommandEnding
        do {
            ending = await ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration).runCommand(work)
        } catch {
            ending = CommandEnding(status: 1, message: "\(error)")
        }
        end(status: ending.status, message: ending.message)
    }

    /// ``main(configuration:_:)`` but for the end of the process: launches,
    /// runs `work`, stops every module, and says how the program should end.
    nonisolated func runCommand(_ work: @escaping @Sendable (ModuleHost) async throws -> Int32) async -> CommandEnding {
        let command = CommandWork()
        do {
            return try await servingSignals(stop: { signal in
                if !command.interrupt(by: signal) { self.stop(bySignal: signal) }
            }) {
                do throws(HostError) {
                    try await self.launch()
                } catch {
                    guard error.code == .cancelled else { return CommandEnding(status: 1, message: "\(error)") }
                    // Stopped during the launch: a signal's status, or a
                    // normal shutdown (a module asked, terminate()).
                    if let status = stopReason?.signalExitStatus { return CommandEnding(status: status) }
                    return CommandEnding(status: error.rollback.contains(where: \.isFailure) ? 3 : 0)
                }
                let result = await command.run(within: configuration.cancelledWorkTimeLimit, watching: self) { try await work(self) }
                if result == nil {
                    let wait = command.signals > 1
                        ? "before a second \(command.signal.map(signalName) ?? "signal") ended the wait"
                        : "within \(configuration.cancelledWorkTimeLimit) of its cancellation"
                    shared.log(.warning, "SectionRegistry: the work did not end \(wait): left behind")
                }
                beginShutdown(command.signal.map(StopReason.signal) ?? .terminate)
                let final = await waitUntilFinal()
                return await ending(of: result, final: final)
            }
        } catch {
            return CommandEnding(status: 1, message: "\(error)")
        }
    }

    /// How a one-shot program ends, given what its work did (`nil`: left
    /// behind) and the host's final status.
    private func ending(of result: Result<Int32, any Error>?, final: HostStatus) -> CommandEnding {
        if let status = stopReason?.signalExitStatus { return CommandEnding(status: status) }
        if let failedRun = failedRunError() { return CommandEnding(status: 1, message: "\(failedRun)") }
        switch result {
        case .success(0):
            if case .stopped(let failures) = final, !failures.isEmpty { return CommandEnding(status: 3) }
            return CommandEnding(status: 0)
        case .success(let status):
            return CommandEnding(status: status)
        case .failure(let error) where error is CancellationError && stopReason != nil:
            // Cancelled because the host stops (a module asked): a normal
            // shutdown, as under ModuleHost.main().
            if case .stopped(let failures) = final, !failures.isEmpty { return CommandEnding(status: 3) }
            return CommandEnding(status: 0)
        case .failure(let error):
            return CommandEnding(status: 1, message: "\(error)")
        case nil:
            return CommandEnding(status: 1)  // the warning said it
        }
    }
}

/// How a one-shot program ends: its exit status, and the message for
/// standard error, if any.
struct CommandEnding: Sendable {
    var status: Int32
    var message: String? = nil
}

/// The one piece of work of ``ModuleHost/main(configuration:_:)``, and what
/// interrupts it.
///
/// The work runs in a task of its own, not a child task, for the reason
/// ``PhaseRun`` gives: work that ignores its cancellation must be left
/// behind, so that Ctrl-C still ends the program, and a child task cannot
/// be.
final class CommandWork: Sendable {
    private struct State {
        /// Whether the work is under way: signals are its, not the host's.
        var working = false
        /// The work's task, once made.
        var task: Task<Void, Never>?
        var interrupted = false
        /// The first SIGINT or SIGTERM that interrupted the work.
        var signal: Int32?
        var signals = 0
    }

    private let state = Locked(State())
    private let result = OneShot<Result<Int32, any Error>>()
    private let interruption = OneShot<Void>()

    /// The signal that interrupted the work, if one did.
    var signal: Int32? {
        state.withLock { $0.signal }
    }

    /// How many SIGINT or SIGTERM signals reached the work.
    var signals: Int {
        state.withLock { $0.signals }
    }

    /// Runs `work` until it ends; interrupted by ``interrupt(by:)`` or by a
    /// stop of `host`, after which it has `limit` to end.
    ///
    /// - Returns: what `work` returned or threw; `nil` if it did not end in
    ///   time after an interruption, or a second signal ended the wait.
    func run(
        within limit: Duration, watching host: ModuleHost, _ work: @escaping @Sendable () async throws -> Int32
    ) async -> Result<Int32, any Error>? {
        // Signals are the work's from before its task begins (it may say
        // it has begun before `task` is stored).
        state.withLock { $0.working = true }
        let task = Task { [result] in
            do { result.fulfil(.success(try await work())) } catch { result.fulfil(.failure(error)) }
        }
        let interruptedAlready = state.withLock { state in
            state.task = task
            return state.interrupted
        }
        if interruptedAlready { task.cancel() }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The limit, counted from the interruption.
                guard await self.interruption.value() != nil else { return }
                try? await Task.sleep(for: limit)
                self.result.expire()
            }
            group.addTask {
                // A stop the host began itself: the modules go away under
                // the work.
                for await status in host.statusUpdates {
                    if case .stopping = status { self.interrupt() }
                }
            }
            let value = await result.value()
            state.withLock { state in
                state.working = false
                state.task = nil
            }
            interruption.expire()
            group.cancelAll()
            return value
        }
    }

    /// A SIGINT or SIGTERM: interrupts the work under way; a second one
    /// ends the wait for it at once.
    ///
    /// - Returns: whether the work took the signal; `false` when none is
    ///   under way, and the signal is the host's.
    func interrupt(by signal: Int32) -> Bool {
        let (taken, second) = state.withLock { state -> (Bool, Bool) in
            guard state.working else { return (false, false) }
            state.signals += 1
            state.signal = state.signal ?? signal
            return (true, state.signals > 1)
        }
        guard taken else { return false }
        interrupt()
        if second { result.expire() }
        return true
    }

    /// Cancels the work (at once, or as soon as its task is made), and
    /// starts its time limit.
    private func interrupt() {
        state.withLock { state in
            state.interrupted = true
            return state.task
        }?.cancel()
        interruption.fulfil(())
    }
}
