import EnvCommand
import SectionRegistry

@c(app_module_Env) func makeEnv() -> AppModuleHandle { AppModuleHandle(Env()) }

/// Offers `env` to the program that links this module.
struct Env: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.offerCommand(EnvCommand.self)
    }
}
