#if canImport(Glibc)
import Glibc
#endif
import FeatureContracts
import SectionRegistry

// shared-app [PLUGIN...]: lists the linked modules with their images,
// launches them, loads each plugin, asks every module for a Ping, stops.

func file(_ path: String?) -> String {
    path.map { String($0.split(separator: "/").last ?? "") } ?? "-"
}

do {
    let registry = try ModuleRegistry.linked()
    print("linked: " + registry.modules.map { "\($0.name) (\(file($0.image)))" }.joined(separator: ", "))
    let host = ModuleHost(registry: registry)
    try await host.launch()
    for plugin in CommandLine.arguments.dropFirst() {
        print("loaded \(file(plugin)): \(try await host.load(plugin: plugin).joined(separator: ", "))")
    }
    print("running: \(await host.runningModules.joined(separator: ", "))")
    print("ping: \(await host.broadcast(Ping()).replies.map(\.reply).joined(separator: ", "))")
    print("stopped: \(await host.terminate().map(\.module).joined(separator: ", "))")
} catch {
    print("error: \(error)")
    exit(1)
}
