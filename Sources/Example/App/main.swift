// The example app. It imports no feature and lists none: each feature is
// linked because Package.swift depends on its target, and registers itself
// with the APP_MODULE line in its C registration target.
import Foundation
import SectionRegistry

let registry: ModuleRegistry
do {
    registry = try ModuleRegistry.linked()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

print("Discovered \(registry.modules.count) modules in the app_modules section, in declared order:")
for (position, module) in registry.modules.enumerated() {
    print("  \(position + 1). \(module), declared in \(module.location.sourceFile ?? "an unnamed file")")
}

print("Setting up:")
for module in registry.modules {
    try await module.makeModule().setUp()
}
