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
        let configuration = root.configuration
        let listed = configuration.ungroupedSubcommands + configuration.groupedSubcommands.flatMap(\.subcommands)
        let listedTypes = Set(listed.map { ObjectIdentifier($0) })
        let missing = offers.filter { !listedTypes.contains(ObjectIdentifier($0.command)) }
        if !missing.isEmpty {
            let commands = missing.map { "'\($0.command._commandName)' (\($0.command), offered by module '\($0.module)')" }
            throw LinkedCommandsError(
                code: .notListed,
                description: "SectionRegistry: \(root)'s subcommands leave out \(commands.joined(separator: ", ")). "
                    + "Its configuration must list `LinkedCommands.all`, and be computed when ArgumentParser parses: "
                    + "`static var configuration: CommandConfiguration { CommandConfiguration(..., subcommands: LinkedCommands.all) }`")
        }
        let offeredBy = Dictionary(offers.map { (ObjectIdentifier($0.command), $0.module) }, uniquingKeysWith: { first, _ in first })
        func origin(_ command: any ParsableCommand.Type) -> String {
            offeredBy[ObjectIdentifier(command)].map { "\(command), offered by module '\($0)'" } ?? "\(command), \(root)'s own"
        }
        var seen: [String: any ParsableCommand.Type] = [:]
        for command in listed {
            let name = command._commandName
            guard let earlier = seen[name] else {
                seen[name] = command
                continue
            }
            let fix = offeredBy[ObjectIdentifier(command)].map { " or disable module '\($0)' (SECTION_REGISTRY_DISABLE=\($0))" } ?? ""
            throw LinkedCommandsError(
                code: .duplicateName,
                description: "SectionRegistry: two of \(root)'s subcommands are named '\(name)': \(origin(earlier)), and \(origin(command)). "
                    + "Rename one (its CommandConfiguration's commandName)\(fix)")
        }
    }
}
#endif
