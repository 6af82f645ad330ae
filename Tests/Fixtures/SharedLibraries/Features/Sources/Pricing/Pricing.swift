import FeatureContracts
import SectionRegistry

@c(app_module_Pricing) func makePricing() -> AppModuleHandle { AppModuleHandle(AnsweringModule("Pricing")) }
