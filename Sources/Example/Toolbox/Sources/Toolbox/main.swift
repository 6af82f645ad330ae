import ArgumentParser
import SectionRegistry

/// The root command: its subcommands are the linked features' commands.
struct Toolbox: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "toolbox", abstract: "Commands from the linked features.", subcommands: LinkedCommands.all)
    }
}

await ModuleHost.main(command: Toolbox.self)
