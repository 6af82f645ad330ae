import Synchronization
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

protocol Clock: Sendable {
    var id: Int { get }
}

final class CountingClock: Clock {
    static let made = Atomic<Int>(0)
    let id: Int
    init() { id = Self.made.add(1, ordering: .relaxed).newValue }
}

protocol Unregistered: Sendable {}
protocol Chicken: Sendable {}
protocol Egg: Sendable {}
struct Hen: Chicken {}
struct HenEgg: Egg {}

/// Services registered by one module and found by type by others.
@Suite(.serialized) struct ServiceTests {
    let journal = Journal()

    /// A module whose start looks `body` up, records the result, and
    /// succeeds.
    func lookUp(_ name: String, after: [String], _ body: @escaping @Sendable (ModuleContext) throws -> String) -> ModuleDescriptor {
        let journal = journal
        return ModuleDescriptor(name: name, after: after) {
            LookupModule(name: name, journal: journal, body: body)
        }
    }

    struct LookupModule: AppModule {
        let name: String
        let journal: Journal
        let body: @Sendable (ModuleContext) throws -> String

        func start(_ context: ModuleContext) async throws {
            lookUp(context)
        }

        func reload(_ context: ModuleContext) async throws {
            lookUp(context)
        }

        private func lookUp(_ context: ModuleContext) {
            do {
                journal.add("\(name) found \(try body(context))")
            } catch {
                journal.add("\(name) error \(error)")
            }
        }
    }

    @Test func sharedServicesAreCreatedLazilyOnceAndPerLookupOnesEachTime() async throws {
        let before = CountingClock.made.load(ordering: .relaxed)
        let modules = [
            scripted("Provider", level: .service, journal: journal) {
                $0.onSetUp = { context in try context.register(Clock.self) { CountingClock() } }
            },
            lookUp("First", after: ["Provider"]) { "\(try $0.service(Clock.self).id)" },
            lookUp("Second", after: ["Provider"]) { "\(try $0.service(Clock.self).id)" },
        ]
        let host = ModuleHost(registry: try declare(modules), configuration: testConfiguration())
        #expect(CountingClock.made.load(ordering: .relaxed) == before, "nothing is created before a lookup")
        try await host.launch()
        let found = journal.entries.filter { $0.contains(" found ") }
        #expect(found == ["First found \(before + 1)", "Second found \(before + 1)"])
        #expect(CountingClock.made.load(ordering: .relaxed) == before + 1)
    }

    @Test func perLookupServicesAreNewEachTime() async throws {
        let before = CountingClock.made.load(ordering: .relaxed)
        _ = try await ModuleHost(registry: declare([
            scripted("Provider", level: .service, journal: journal) {
                $0.onSetUp = { context in try context.register(Clock.self, lifetime: .perLookup) { CountingClock() } }
            },
            lookUp("User", after: ["Provider"]) { context in
                "\(try context.service(Clock.self).id) \(try context.service(Clock.self).id)"
            },
        ]), configuration: testConfiguration()).launch()
        #expect(journal.entries.contains("User found \(before + 1) \(before + 2)"))
    }

    @Test func registeringAServiceTwiceFailsTheLaunchNamingBothModules() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("One", journal: journal) { $0.onSetUp = { try $0.register(Clock.self) { CountingClock() } } },
            scripted("Two", journal: journal) { $0.onSetUp = { try $0.register(Clock.self) { CountingClock() } } },
        ]), configuration: testConfiguration())
        do {
            try await host.launch()
            Issue.record("launched")
        } catch {
            guard error.code == .moduleFailed, error.module == "Two", error.phase == .setUp,
                  let service = error.underlying as? ServiceError,
                  service.code == .duplicate, service.registeredBy == "One", service.module == "Two" else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(service.service.hasSuffix("Clock"))
            #expect(service.description.contains("registered twice, by module 'One' and by module 'Two'"))
        }
    }

    @Test func aMissingServiceSaysWhichAndWhoAsked() async throws {
        _ = try await ModuleHost(registry: declare([
            scripted("Provider", level: .service, journal: journal) {
                $0.onSetUp = { try $0.register(Clock.self) { CountingClock() } }
            },
            lookUp("Asker", after: []) { _ = try $0.service(Unregistered.self); return "?" },
        ]), configuration: testConfiguration()).launch()
        let line = try #require(journal.entries.first { $0.hasPrefix("Asker error") })
        #expect(line.contains("module 'Asker' asked for service"))
        #expect(line.contains("Unregistered, which no module registered"))
        #expect(line.contains("Clock"), "it lists what is registered")
    }

    @Test func codeOutsideTheModulesLooksUpTheirServicesThroughTheHost() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Provider", level: .service, journal: journal) {
                $0.onSetUp = { try $0.register(Clock.self) { CountingClock() } }
            },
            lookUp("User", after: ["Provider"]) { "\(try $0.service(Clock.self).id)" },
        ]), configuration: testConfiguration())
        try await host.launch()
        let clock = try host.service(Clock.self)
        #expect(journal.entries.contains("User found \(clock.id)"), "the host finds the instance the modules share")
        do {
            _ = try host.service(Unregistered.self)
            Issue.record("found a service no module registered")
        } catch {
            #expect(error.code == .missing)
            #expect(error.module == "", "no module asked")
            #expect(error.description.contains("code outside the modules asked for service"))
            #expect(error.description.contains("Unregistered, which no module registered (registered: "))
        }
        _ = await host.terminate()
        #expect(throws: ServiceError.self, "a stopped module's services are gone") { try host.service(Clock.self) }
    }

    @Test func aServiceThatNeedsItselfIsACycleNotADeadlock() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Farm", level: .service, journal: journal) {
                $0.onSetUp = { context in
                    try context.register(Chicken.self) { _ = try context.service(Egg.self); return Hen() }
                    try context.register(Egg.self) { _ = try context.service(Chicken.self); return HenEgg() }
                }
            },
            lookUp("Cook", after: ["Farm"]) { _ = try $0.service(Egg.self); return "an egg" },
        ]), configuration: testConfiguration())
        try await host.launch()
        let line = try #require(journal.entries.first { $0.hasPrefix("Cook error") })
        #expect(line.contains("needs itself to be created"))
        // The factories hold the context, and through it the host: stopping
        // the provider forgets them, which is what releases the host.
        await host.terminate()
    }

    @Test func removingAModuleRemovesItsServices() async throws {
        let host = ModuleHost(registry: try declare([
            scripted("Provider", level: .service, journal: journal) {
                $0.onSetUp = { try $0.register(Clock.self) { CountingClock() } }
            },
            lookUp("Consumer", after: []) { _ = try $0.service(Clock.self); return "a clock" },
        ]), configuration: testConfiguration())
        try await host.launch()
        try await host.remove("Provider")
        await host.reload()
        let lines = journal.entries.filter { $0.hasPrefix("Consumer") }
        #expect(lines.count == 2 && lines[0].hasPrefix("Consumer found a")
                    && lines[1].hasPrefix("Consumer error SectionRegistry: module 'Consumer' asked for service"), "\(lines)")
    }
}
