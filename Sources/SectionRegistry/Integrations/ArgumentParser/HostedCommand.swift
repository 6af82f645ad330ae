#if ArgumentParser
import ArgumentParser

/// A command that uses the running modules: ``ModuleHost/run(command:arguments:)``
/// calls ``run(host:)`` with the host, where the command looks up a
/// module's service or sends an event.
///
/// ```swift
/// struct TranslateCommand: HostedCommand {
///     static let configuration = CommandConfiguration(commandName: "translate")
///
///     @Argument var word: String
///
///     func run(host: ModuleHost) async throws {
///         print(try host.service(Phrasebook.self).translation(of: word))
///     }
/// }
/// ```
public protocol HostedCommand: AsyncParsableCommand {
    /// Runs the command, every module started. Throwing is as in
    /// ArgumentParser's `run()`: a `ValidationError` is a usage error
    /// (exit 64), an `ExitCode` is that status, any other error exit 1.
    mutating func run(host: ModuleHost) async throws
}

extension HostedCommand {
    /// Calls ``run(host:)`` with the host of the ``ModuleHost/run(command:arguments:)``
    /// under way. Run some other way (ArgumentParser's `main()`), where no
    /// module is running, it fails with an error that says so.
    public mutating func run() async throws {
        guard let host = CommandScope.current?.host else { throw HostedCommandError(command: Self._commandName) }
        try await run(host: host)
    }
}

/// A ``HostedCommand`` run without a host.
struct HostedCommandError: Error, CustomStringConvertible {
    let command: String

    var description: String {
        "'\(command)' uses the modules' host, and none is running: start the tool with `await ModuleHost.main(command: Root.self)`, "
            + "not ArgumentParser's `main()`"
    }
}
#endif
