// The `ArgumentParser` trait: commands offered by modules, the root that
// lists them, and what run(command:arguments:) returns and throws. The
// toolbox example runs the same as a real tool (scripts/toolbox-test.sh).
#if ArgumentParser
import ArgumentParser
import SectionRegistry
import SectionRegistryTesting
import Testing

@Suite struct ArgumentParserTests {
    @Test func aLinkedCommandRunsWithTheModulesServices() async throws {
        let journal = Journal()
        try await withTestHost(
            [Offering.module("Words", [RecordCommand.self, ListedCommand.self])],
            fakes: { try $0.register(Journal.self) { journal } }
        ) { test in
            let statuses = [
                try await test.host.run(command: Root.self, arguments: ["record", "ada"]),
                try await test.host.run(command: Root.self, arguments: ["listed"]),
            ]
            #expect(statuses == [0, 0])
            #expect(journal.entries == ["ada", "listed: record, listed"])
        }
    }

    @Test func offersAreInStartOrderWithTheirModules() async throws {
        try await withTestHost([
            Offering.module("Late", [ListedCommand.self], priority: 0),
            Offering.module("Early", [RecordCommand.self, FailingCommand.self], priority: 10),
        ]) { test in
            let offers = await test.host.offeredCommands().map { "\($0.module): \($0.command._commandName)" }
            #expect(offers == ["Early: record", "Early: fail", "Late: listed"])
            #expect(LinkedCommands.all.isEmpty, "outside run(command:arguments:), the list is empty")
        }
    }

    @Test(arguments: [
        (["fail", "--status", "3"], 3),  // an ExitCode the command threw
        (["fail", "--status", "0", "--invalid"], 64),  // ArgumentParser's usage error
        (["frobnicate"], 64),  // an unknown command
        (["fail", "--status", "0", "--validation"], 64),  // a ValidationError from run
        (["fail", "--status", "0", "--other"], 1),  // any other error
    ] as [([String], Int32)])
    func theStatusIsArgumentParsers(arguments: [String], status: Int32) async throws {
        try await withTestHost([Offering.module("Fail", [FailingCommand.self])]) { test in
            let ended = try await test.host.run(command: Root.self, arguments: arguments)
            #expect(ended == status)
        }
    }

    @Test func aCancelledCommandThrowsItsCancellation() async throws {
        try await withTestHost([Offering.module("Fail", [FailingCommand.self])]) { test in
            _ = await #expect(throws: CancellationError.self) {
                try await test.host.run(command: Root.self, arguments: ["fail", "--status", "0", "--cancelled"])
            }
        }
    }

    @Test func aRootThatDoesNotListTheOffersIsALoudError() async throws {
        let journal = Journal()
        try await withTestHost(
            [Offering.module("Words", [RecordCommand.self])],
            fakes: { try $0.register(Journal.self) { journal } }
        ) { test in
            let error = await #expect(throws: LinkedCommandsError.self) {
                try await test.host.run(command: ForgetfulRoot.self, arguments: ["record", "ada"])
            }
            #expect(error?.code == .notListed)
            #expect(error?.description.contains("'record' (RecordCommand, offered by module 'Words')") == true)
            #expect(error?.description.contains("subcommands: LinkedCommands.all") == true)
            ArticleQuotes.expectQuoted(in: "CommandLineTools.md", startingWith: "Toolbox's subcommands leave out", printed: error?.description ?? "",
                                       renamed: [("Toolbox", "ForgetfulRoot"), ("'greet'", "'record'"), ("GreetCommand", "RecordCommand"), ("'Greet'", "'Words'")])
            #expect(journal.entries.isEmpty, "nothing is parsed or run")
        }
    }

    @Test func twoCommandsWithOneNameAreALoudError() async throws {
        try await withTestHost([
            Offering.module("Words", [RecordCommand.self], priority: 1),
            Offering.module("Other", [OtherRecordCommand.self]),
        ]) { test in
            let error = await #expect(throws: LinkedCommandsError.self) {
                try await test.host.run(command: Root.self, arguments: ["record", "ada"])
            }
            #expect(error?.code == .duplicateName)
            #expect(error?.description == "SectionRegistry: two of Root's subcommands are named 'record': "
                + "RecordCommand, offered by module 'Words', and OtherRecordCommand, offered by module 'Other'. "
                + "Rename one (its CommandConfiguration's commandName) or disable module 'Other' (SECTION_REGISTRY_DISABLE=Other)")
        }
    }

    @Test func aHostedCommandRunWithoutTheHostSaysHowToRunIt() async throws {
        let command = try RecordCommand.parse(["ada"])
        let error = await #expect(throws: (any Error).self) {
            var command = command
            try await command.run()
        }
        #expect("\(error!)" == "'record' uses the modules' host, and none is running: "
            + "start the tool with `await ModuleHost.main(command: Root.self)`, not ArgumentParser's `main()`")
    }
}

/// A tool's root, as the docs write it.
private struct Root: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "tool", subcommands: LinkedCommands.all)
    }
}

/// A root that forgot `LinkedCommands.all`.
private struct ForgetfulRoot: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tool", subcommands: [ListedCommand.self])
}

/// A module offering the given commands.
private struct Offering: AppModule {
    let commands: [any ParsableCommand.Type]

    static func module(_ name: String, _ commands: [any ParsableCommand.Type], priority: Int = 0) -> ModuleDescriptor {
        ModuleDescriptor(name: name, priority: priority) { Offering(commands: commands) }
    }

    func setUp(_ context: ModuleContext) async throws {
        for command in commands { context.offerCommand(command) }
    }
}

/// `record WORD`: writes WORD to the journal service.
private struct RecordCommand: HostedCommand {
    static let configuration = CommandConfiguration(commandName: "record")

    @Argument var word: String

    func run(host: ModuleHost) async throws {
        try host.service(Journal.self).add(word)
    }
}

/// A second `record`, from another module.
private struct OtherRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record")
}

/// `listed`: writes the linked commands' names, as its run sees them.
private struct ListedCommand: HostedCommand {
    static let configuration = CommandConfiguration(commandName: "listed")

    func run(host: ModuleHost) async throws {
        try host.service(Journal.self).add("listed: " + LinkedCommands.all.map { $0._commandName }.joined(separator: ", "))
    }
}

/// `fail`: ends as its flags say.
private struct FailingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fail")

    @Option var status: Int32
    @Flag var validation = false
    @Flag var other = false
    @Flag var cancelled = false

    struct Other: Error {}

    func run() async throws {
        if validation { throw ValidationError("asked to fail") }
        if other { throw Other() }
        if cancelled { throw CancellationError() }
        throw ExitCode(status)
    }
}
#endif
