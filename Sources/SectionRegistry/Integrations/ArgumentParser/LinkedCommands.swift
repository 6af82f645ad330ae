// swift-argument-parser, under the `ArgumentParser` trait: a tool whose
// subcommands are offered by the feature modules linked into it.
#if ArgumentParser
import ArgumentParser

extension ModuleContext {
    /// Offers `command` as a subcommand of the tool that links this module:
    /// ``ModuleHost/main(command:configuration:)`` adds it to
    /// ``LinkedCommands/all``, which the tool's root command lists. Call it
    /// in ``AppModule/setUp(_:)``; a module may offer several commands.
    ///
    /// ```swift
    /// struct Greet: AppModule {
    ///     func setUp(_ context: ModuleContext) async throws {
    ///         context.offerCommand(GreetCommand.self)
    ///     }
    /// }
    /// ```
    ///
    /// The command is plain ArgumentParser code; one that needs a module's
    /// service conforms to ``HostedCommand``.
    public func offerCommand(_ command: any ParsableCommand.Type) {
        on(CommandOffer.self) { _ in command }
    }
}

extension ModuleHost {
    /// The commands the running modules offer (``ModuleContext/offerCommand(_:)``),
    /// in start order, each with the module that offers it.
    public nonisolated func offeredCommands() async -> [(module: String, command: any ParsableCommand.Type)] {
        await gather(CommandOffer()).replies.map { (module: $0.module, command: $0.reply) }
    }
}

/// The commands the linked modules offer, for the tool's root command to
/// list as its subcommands:
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
public enum LinkedCommands {
    /// The offered commands, in start order (levels, then priority, then
    /// name). Set while ``ModuleHost/run(command:arguments:)`` parses and
    /// runs, which is when ArgumentParser reads a root command's
    /// `configuration`; empty outside it.
    ///
    /// A task-local value, not a global: two hosts in one process (tests
    /// in parallel) each see their own modules' commands.
    public static var all: [any ParsableCommand.Type] {
        CommandScope.current?.offered ?? []
    }
}

/// What ``ModuleHost/run(command:arguments:)`` binds while it parses and
/// runs: the root's subcommands, and the host a ``HostedCommand`` runs with.
struct CommandScope: Sendable {
    @TaskLocal static var current: CommandScope?

    let host: ModuleHost
    let offered: [any ParsableCommand.Type]
}

/// Asked of every module by ``ModuleHost/offeredCommands()``: each
/// ``ModuleContext/offerCommand(_:)`` answers with its command.
struct CommandOffer: ModuleEvent {
    typealias Reply = any ParsableCommand.Type
}
#endif
