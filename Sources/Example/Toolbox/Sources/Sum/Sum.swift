import SumCommand
import SectionRegistry
import ToolboxKit

@c(app_module_Sum) func makeSum() -> AppModuleHandle { AppModuleHandle(Sum()) }

/// Offers `sum` to the program that links this module.
struct Sum: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(ListCommands.self) { _ in LinkedCommand(SumCommand.self) }
    }
}
