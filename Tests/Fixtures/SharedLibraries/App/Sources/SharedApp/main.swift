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
    let running = await host.runningModules
    print("running: \(running.joined(separator: ", "))")
    print("ping: \(await host.broadcast(Ping()).replies.map(\.reply).joined(separator: ", "))")
    let failures = await host.terminate().filter(\.isFailure)
    print("stopped: \(running.reversed().joined(separator: ", "))" + (failures.isEmpty ? "" : " (not cleanly: \(failures))"))
} catch {
    print("error: \(error)")
    exit(1)
}
