import SectionRegistry
import SectionRegistryTesting
import Testing

struct FixedTranslator: Translator {
    func hello() -> String { "Hallo" }
}

@Test func greetingsGreetsInTheTranslatorsLanguage() async throws {
    try await withTestHost(
        [ModuleDescriptor(name: "Greetings") { Greetings() }],
        fakes: { try $0.register(Translator.self) { FixedTranslator() } }
    ) { test in
        let report = await test.host.broadcast(Greet(name: "Ada"))
        #expect(report.replies.map { $0.reply } == ["Hallo, Ada"])
        let greeter = try test.context.service(Greeter.self)
        #expect(greeter.greeting(for: "Bo") == "Hallo, Bo")
        #expect(test.log.lines(of: "Greetings").map(\.message) == ["greeted Ada"])
    }
}
