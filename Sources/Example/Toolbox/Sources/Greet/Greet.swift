import GreetCommand
import SectionRegistry
import ToolboxKit

@c(app_module_Greet) func makeGreet() -> AppModuleHandle { AppModuleHandle(Greet()) }

/// Offers `greet` to the program that links this module.
struct Greet: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(ListCommands.self) { _ in LinkedCommand(GreetCommand.self) }
    }
}
