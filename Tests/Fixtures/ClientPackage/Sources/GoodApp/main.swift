import SectionRegistry

for module in try ModuleRegistry.linked().modules {
    print("found \(module.name) [\(module.level)]")
    try await module.makeModule().setUp()
}
