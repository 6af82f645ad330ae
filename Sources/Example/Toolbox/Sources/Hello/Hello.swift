import ArgumentParser
import SectionRegistry
import ToolboxKit

@c(app_module_Hello) func makeHello() -> AppModuleHandle { AppModuleHandle(Hello()) }

/// Registers the `Salutation` service and offers `hello`, which uses it.
struct Hello: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        try context.register(Salutation.self) { Salutation(word: context.environment["SALUTATION"] ?? "Hello") }
        context.on(ListCommands.self) { _ in LinkedCommand(HelloCommand.self) }
    }
}

/// How `hello` greets: the service.
struct Salutation: Sendable {
    let word: String
}

/// `hello NAME`: a command that uses the module's service, through the
/// host main.swift binds.
struct HelloCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hello", abstract: "Greet someone with the salutation.")

    @Argument(help: "Who to greet.")
    var name: String

    func run() throws {
        let salutation = try ToolboxHost.current!.service(Salutation.self)
        print("\(salutation.word), \(name)!")
    }
}
