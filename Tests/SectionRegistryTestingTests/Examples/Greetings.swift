import SectionRegistry

/// Another module's service: the words of the user's language.
protocol Translator: Sendable {
    func hello() -> String
}

/// What Greetings offers the other modules.
struct Greeter: Sendable {
    let hello: String
    func greeting(for name: String) -> String { "\(hello), \(name)" }
}

/// Asks the modules for a greeting.
struct Greet: ModuleEvent {
    typealias Reply = String
    let name: String
}

/// Greets people by name, in the language the Translator gives.
struct Greetings: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        try context.register(Greeter.self) { Greeter(hello: try context.service(Translator.self).hello()) }
        context.on(Greet.self) { event in
            context.log("greeted \(event.name)")
            return try context.service(Greeter.self).greeting(for: event.name)
        }
    }
}
