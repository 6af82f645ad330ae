import SectionRegistry

let registry = try ModuleRegistry.linked()
for module in registry.modules {
    print("found \(module.name) [\(module.level)]")
}
try await ModuleHost(registry: registry).launch()
