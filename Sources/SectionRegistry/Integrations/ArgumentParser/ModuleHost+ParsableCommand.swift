#if ArgumentParser
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// The whole `main` of a command-line tool made of linked modules:
    /// ``main(configuration:_:)`` running `command` with the process's
    /// arguments (``run(command:arguments:)``).
    ///
    /// ```swift
    /// struct Toolbox: ParsableCommand {
    ///     static var configuration: CommandConfiguration {
    ///         CommandConfiguration(abstract: "Commands from the linked features.", subcommands: LinkedCommands.all)
    ///     }
    /// }
    ///
    /// await ModuleHost.main(command: Toolbox.self)
    /// ```
    ///
    /// The tool exits with ArgumentParser's status (0, or 64 for a usage
    /// error, with ArgumentParser's message) once every module stopped
    /// cleanly; 130 or 143 after SIGINT or SIGTERM, which cancel the
    /// command; 1 if the modules cannot be launched or a command threw
    /// what is not ArgumentParser's (``LinkedCommandsError`` among them).
    /// Signals and the rest are as ``main(configuration:_:)`` says.
    public static func main(command root: any ParsableCommand.Type, configuration: HostConfiguration = .commandLine) async -> Never {
        await main(configuration: configuration) { host in
            try await host.run(command: root, arguments: Array(CommandLine.arguments.dropFirst()))
        }
    }

    /// Parses `arguments` against `root`, its subcommands the commands the
    /// running modules offer (``LinkedCommands/all``), and runs the command
    /// they name: what ArgumentParser's `main()` does, but it returns the
    /// exit status instead of ending the process, so that the host stops
    /// the modules first. A ``HostedCommand`` runs with this host.
    ///
    /// Help and `--version` go to standard output, and an error's message
    /// to standard error, as ArgumentParser writes them.
    ///
    /// - Returns: 0, or ArgumentParser's status for what the command threw
    ///   (64 for a usage error, what an `ExitCode` says, 1 for any other
    ///   error).
    /// - Throws: ``LinkedCommandsError`` if `root` does not list every
    ///   offered command, or two commands have one name, before anything
    ///   is parsed; `CancellationError` if the command was cancelled and
    ///   threw it (a signal, under ``main(command:configuration:)``).
    public nonisolated func run(command root: any ParsableCommand.Type, arguments: [String]) async throws -> Int32 {
        let offers = await offeredCommands()
        return try await CommandScope.$current.withValue(CommandScope(host: self, offered: offers.map(\.command))) {
            try LinkedCommandsError.check(root, lists: offers)
            do {
                var command = try root.parseAsRoot(arguments)
                if var command = command as? any AsyncParsableCommand {
                    try await command.run()  // a HostedCommand's calls run(host:)
                } else {
                    try command.run()
                }
                return 0
            } catch let cancellation as CancellationError {
                throw cancellation
            } catch {
                let code = root.exitCode(for: error)
                let message = root.fullMessage(for: error)
                if !message.isEmpty {
                    if code == .success { print(message) } else { Self.writeToStandardError(message) }
                }
                return code.rawValue
            }
        }
    }

    private static func writeToStandardError(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
#endif
