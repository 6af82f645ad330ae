import GreetCommand
import SectionRegistry

@c(app_module_Greet) func makeGreet() -> AppModuleHandle { AppModuleHandle(Greet()) }

/// Offers `greet` to the program that links this module.
struct Greet: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.offerCommand(GreetCommand.self)
    }
}
