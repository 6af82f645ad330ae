import FeatureContracts
import SectionRegistry

@c(app_module_Inventory) func makeInventory() -> AppModuleHandle { AppModuleHandle(AnsweringModule("Inventory")) }
