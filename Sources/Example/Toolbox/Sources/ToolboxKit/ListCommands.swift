import ArgumentParser
import SectionRegistry

/// Asked of every module by the tool: each feature answers with its
/// command, which becomes a subcommand of the tool.
public struct ListCommands: ModuleEvent {
    public typealias Reply = LinkedCommand

    public init() {}
}

/// A subcommand a linked feature offers.
public struct LinkedCommand: Sendable {
    /// The command's type, for the root command's `subcommands`.
    public let type: any ParsableCommand.Type

    public init(_ type: any ParsableCommand.Type) {
        self.type = type
    }
}
