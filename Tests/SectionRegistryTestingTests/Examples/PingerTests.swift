import SectionRegistry
import SectionRegistryTesting
import Testing

@Test func pingerServesUntilDrainedThenStops() async throws {
    try await withTestHost([ModuleDescriptor(name: "Pinger") { Pinger() }]) { test in
        let drained = try await test.drain("Pinger")
        #expect(!drained.isFailure)
        #expect(test.log.lines(of: "Pinger").map(\.message) == ["serving", "drained"])

        let shutdown = await test.stop()
        #expect(shutdown.map { "\($0.module) \($0.phase) \($0.result)" } == ["Pinger stop completed"])
        #expect(test.log.lines(of: "Pinger").map(\.message) == ["serving", "drained", "stopped"])
    }
}
