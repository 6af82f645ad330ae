import SectionRegistry
import SectionRegistryTesting
import Testing
import ToolboxKit
@testable import Greet

/// Greet offers its command to whatever program links it: the tool lists
/// it when it asks the linked modules for their commands.
@Test func greetOffersItsCommandToTheTool() async throws {
    try await withTestHost([ModuleDescriptor(name: "Greet") { Greet() }]) { test in
        let commands = await test.host.gather(ListCommands()).replies.map { $0.reply.type.configuration.commandName }
        #expect(commands == ["greet"])
    }
}
