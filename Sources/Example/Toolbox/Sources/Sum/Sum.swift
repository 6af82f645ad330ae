import SumCommand
import SectionRegistry

@c(app_module_Sum) func makeSum() -> AppModuleHandle { AppModuleHandle(Sum()) }

/// Offers `sum` to the program that links this module.
struct Sum: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.offerCommand(SumCommand.self)
    }
}
