import FeatureContracts
import SectionRegistry

@c(app_module_Reports) func makeReports() -> AppModuleHandle { AppModuleHandle(AnsweringModule("Reports")) }
