#if ArgumentParser
import ArgumentParser

/// A tool whose root command and linked commands do not fit together,
/// found before any argument is parsed: a build or code mistake, never the
/// user's input.
public struct LinkedCommandsError: Error, CustomStringConvertible {
    /// What does not fit.
    public enum Code: Sendable, Equatable {
        /// The root command does not list a command a module offers: its
        /// `configuration` leaves out ``LinkedCommands/all``, or was read
        /// before the modules offered their commands.
        case notListed
        /// Two commands, offered or the root's own, have one name.
        case duplicateName
    }

    public let code: Code
    public let description: String

    /// Checks that `root` lists every one of `offers` and that no two of
    /// its subcommands share a name.
    static func check(_ root: any ParsableCommand.Type, lists offers: [(module: String, command: any ParsableCommand.Type)]) throws(LinkedCommandsError) {
        // Arrays, not sets or dictionaries: a tool has a handful of
        // commands, and a dictionary of a type the program has not used
        // yet costs its first use a scan of every image's conformance
        // records, in every run of the tool.
        let configuration = root.configuration
        let listed = configuration.ungroupedSubcommands + configuration.groupedSubcommands.flatMap(\.subcommands)
        let missing = offers.filter { offer in !listed.contains { $0 == offer.command } }
        if !missing.isEmpty {
            let commands = missing.map { "'\($0.command._commandName)' (\($0.command), offered by module '\($0.module)')" }
            throw LinkedCommandsError(
                code: .notListed,
                description: "SectionRegistry: \(root)'s subcommands leave out \(commands.joined(separator: ", ")). "
                    + "Its configuration must list `LinkedCommands.all`, in a computed property that ArgumentParser reads when it parses: "
                    + "`static var configuration: CommandConfiguration { CommandConfiguration(..., subcommands: LinkedCommands.all) }`")
        }
        func module(offering command: any ParsableCommand.Type) -> String? {
            offers.first { $0.command == command }?.module
        }
        func origin(_ command: any ParsableCommand.Type) -> String {
            module(offering: command).map { "\(command), offered by module '\($0)'" } ?? "\(command), \(root)'s own"
        }
        let names = listed.map { $0._commandName }
        for (index, name) in names.enumerated() {
            guard let earlier = names[..<index].firstIndex(of: name) else { continue }
            let command = listed[index]
            let fix = module(offering: command).map { " or disable module '\($0)' (SECTION_REGISTRY_DISABLE=\($0))" } ?? ""
            throw LinkedCommandsError(
                code: .duplicateName,
                description: "SectionRegistry: two of \(root)'s subcommands are named '\(name)': \(origin(listed[earlier])), and \(origin(command)). "
                    + "Rename one (its CommandConfiguration's commandName)\(fix)")
        }
    }
}
#endif
