import FeatureContracts
import SectionRegistry

@c(app_module_Charts) func makeCharts() -> AppModuleHandle { AppModuleHandle(AnsweringModule("Charts")) }
