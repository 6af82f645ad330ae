import SectionRegistry

print(try ModuleRegistry.linked().modules.map(\.name))
