import FeatureContracts
import SectionRegistry

@c(app_module_Gateway) func makeGateway() -> AppModuleHandle { AppModuleHandle(AnsweringModule("Gateway")) }
