#if canImport(Glibc)
import Glibc
#endif
import SectionRegistry

// registry-plugin-host [--unload-and-reload] PLUGIN...
//
// Launches the program's modules, loads each plugin, and stops everything.
// With --unload-and-reload, unloads each plugin once loaded and loads it
// again. Exits non-zero if a plugin is refused.

var arguments = Array(CommandLine.arguments.dropFirst())
let cycles = arguments.first == "--unload-and-reload"
if cycles { arguments.removeFirst() }

// Module lines on standard output, as they are, among the host's own.
var configuration = HostConfiguration()
configuration.log = HostLogHandler { _, message, _ in print(message) }
let host: ModuleHost
do {
    host = ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration)
    try await host.launch()
} catch {
    print("error: \(error)")
    exit(2)
}
print("program: \(await host.runningModules.joined(separator: ", "))")

var refused = false
for path in arguments {
    do {
        print("loaded \(path): \(try await host.load(plugin: path).joined(separator: ", "))")
        if cycles {
            let stopped = try await host.unload(plugin: path)
            print("unloaded \(path): \(stopped.map(\.module).joined(separator: ", "))")
            print("loaded again \(path): \(try await host.load(plugin: path).joined(separator: ", "))")
        }
    } catch {
        print("refused \(path): \(error)")
        refused = true
    }
}
let running = await host.runningModules
print("running: \(running.joined(separator: ", "))")
// terminate() returns the outcomes of the stop hooks the modules write; it
// stops every running module, in reverse start order.
let failures = await host.terminate().filter(\.isFailure)
print("stopped: \(running.reversed().joined(separator: ", "))" + (failures.isEmpty ? "" : " (not cleanly: \(failures))"))
exit(refused ? 1 : 0)
