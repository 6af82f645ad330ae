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
    /// 130 after SIGINT, 143 after SIGTERM. Ending the work is the first
    /// step of the host's shutdown, so a second signal cuts it short, as it
    /// does under ``run()``: the wait for the work ends at once, and the
    /// stop hooks not yet called are skipped. During launch, the same
    /// signals cancel the launch (what started is stopped) with the same
    /// exit statuses. SIGHUP, SIGUSR1 and SIGUSR2 are answered as ``run()``
    /// says.
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
        do {
            end(await ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration).runCommand(work))
        } catch {
            end(ProgramEnd(status: 1, message: "\(error)"))
        }
    }

    /// ``main(configuration:_:)`` but for the end of the process: launches,
    /// runs `work`, stops every module, and says how the program should end.
    nonisolated func runCommand(_ work: @escaping @Sendable (ModuleHost) async throws -> Int32) async -> ProgramEnd {
        let command = CommandWork(within: configuration.cancelledWorkTimeLimit)
        do {
            return try await servingSignals(stop: { self.requestStop(.signal($0)) }) {
                do throws(HostError) {
                    try await self.launch()
                } catch {
                    return ProgramEnd(of: .command(nil), final: status, stopReason: stopReason)
                }
                // A stop from now on (a signal, a module's request, a failed
                // run) ends the work, as the shutdown's first step.
                await adopt(command)
                let result = await command.run { try await work(self) }
                requestStop(.terminate)  // the work's own end; nothing if a stop began
                return ProgramEnd(of: .command(result), final: await waitUntilFinal(), stopReason: stopReason, failedRun: await failedRunError())
            }
        } catch {
            return ProgramEnd(status: 1, message: "\(error)")
        }
    }

    /// `command` is the work the host runs: its shutdown ends it first.
    private func adopt(_ command: CommandWork) {
        self.command = command
    }

    /// The shutdown's first step, when the host runs a command's work: the
    /// work is cancelled and waited for, within
    /// ``HostConfiguration/cancelledWorkTimeLimit``; one that ignores its
    /// cancellation is left behind, and a warning says so.
    func endCommand() async {
        guard let command, await !command.end() else { return }
        let ended = if Task.isCancelled, case .signal(let number) = stopReason {
            "before a second \(signalName(number)) ended the wait"
        } else if Task.isCancelled {
            "before a second stop ended the wait"
        } else {
            "within \(configuration.cancelledWorkTimeLimit) of its cancellation"
        }
        shared.log(.warning, "SectionRegistry: the work did not end \(ended): left behind")
    }
}
