import ArgumentParser
import EnvCommand
import GreetCommand
import SumCommand

/// The same tool with ArgumentParser alone, its commands listed by hand:
/// what the modules cost is measured against it.
@main struct ToolboxPlain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toolbox", abstract: "Commands from the linked features.",
        subcommands: [GreetCommand.self, SumCommand.self, EnvCommand.self])
}
