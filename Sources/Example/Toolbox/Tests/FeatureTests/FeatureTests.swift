import ArgumentParser
import SectionRegistry
import SectionRegistryTesting
import Testing
@testable import Greet
@testable import Phrasebook

/// Greet offers its command to whatever program links it.
@Test func greetOffersItsCommand() async throws {
    try await withTestHost([ModuleDescriptor(name: "Greet") { Greet() }]) { test in
        let offers = await test.host.offeredCommands().map { "\($0.module): \($0.command._commandName)" }
        #expect(offers == ["Greet: greet"])
    }
}

/// Phrasebook registers the service its `translate` command uses, and the
/// command, run as the tool runs it, finds it.
@Test func translateUsesThePhrasebooksService() async throws {
    try await withTestHost([ModuleDescriptor(name: "Phrasebook") { Phrasebook() }]) { test in
        #expect(try test.context.service(Translations.self).translation(of: "Hello", to: "fr") == "bonjour")
        let status = try await test.host.run(command: Tool.self, arguments: ["translate", "thanks", "--to", "de"])
        #expect(status == 0)
        let unknown = try await test.host.run(command: Tool.self, arguments: ["translate", "thanks", "--to", "xx"])
        #expect(unknown == 64)
    }
}

/// A root for the test, as the tool's.
private struct Tool: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(subcommands: LinkedCommands.all)
    }
}
