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
print("running: \(await host.runningModules.joined(separator: ", "))")
let stopped = await host.terminate()
print("stopped: \(stopped.map(\.module).joined(separator: ", "))")
exit(refused ? 1 : 0)
