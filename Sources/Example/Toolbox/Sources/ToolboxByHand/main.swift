import ArgumentParser
import SectionRegistry
import Synchronization
import ToolboxKit

/// The root command: its subcommands are the commands of the linked
/// features, set before parsing.
struct Toolbox: AsyncParsableCommand {
    static let linked = Mutex<[any ParsableCommand.Type]>([])

    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "toolbox", abstract: "Commands from the linked features.", subcommands: linked.withLock { $0 })
    }
}

await ModuleHost.main { host in
    // In start order: levels, then priority, then name.
    let commands = await host.gather(ListCommands()).replies.map(\.reply.type)
    Toolbox.linked.withLock { $0 = commands }
    return await ToolboxHost.$current.withValue(host) {
        await Toolbox.run(Array(CommandLine.arguments.dropFirst()))
    }
}
