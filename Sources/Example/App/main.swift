// The example app. It imports no feature and lists none: each feature is
// linked because Package.swift depends on its target, and registers itself
// with the APP_MODULE line in its C registration target.
//
//   registry-example              launch, send a few events, shut down
//   registry-example --timings    the same, then where the time went
//   registry-example serve        ModuleHost.main(): launch, then serve signals
//                                 (SIGHUP reloads, SIGTERM or SIGINT shuts down)
//                                 and exit; a bad configuration is a message
import ExampleContracts
import Foundation
import SectionRegistry

/// Writes a line to standard output at once, unbuffered, so that a process
/// reading the other end of a pipe sees it when it happens.
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

let registry: ModuleRegistry
do {
    registry = try ModuleRegistry.linked()
} catch {
    fail(error)
}

say("Discovered \(registry.modules.count) modules in the app_modules section, in declared order:")
for (position, module) in registry.modules.enumerated() {
    say("  \(position + 1). \(module), declared in \(module.location?.sourceFile ?? "Swift")")
}

var configuration = HostConfiguration()
// Module lines and the host's messages on standard output, message only, at
// the level SECTION_REGISTRY_LOG_LEVEL names (info by default).
configuration.log = HostLogHandler(logLevel: HostLogHandler.environmentLevel) { _, message, _ in
    say(message)
}
configuration.timesEventHandlers = true
configuration.userSignalEvents[.usr1] = DailyReport(day: "on demand")
let arguments = CommandLine.arguments.dropFirst()

if arguments.contains("serve") {
    say("Serving as pid \(getpid()): SIGHUP reloads, SIGTERM or SIGINT stops.")
    await ModuleHost.main(configuration: configuration)
}

let host = ModuleHost(registry: registry, configuration: configuration)
say("Launching:")
do {
    try await host.launch()
} catch {
    fail(error)
}
say("Running: \(await host.runningModules.joined(separator: ", "))")

say("Requests, first handler wins:")
for path in ["/billing/42", "/search?q=swift", "/accounts/ada", "/nowhere"] {
    if let (module, reply) = await host.firstHandler(for: OpenPath(path)).firstReply {
        say("    \(path) -> \(module): \(reply)")
    } else {
        say("    \(path) -> no module handled it")
    }
}

say("Custom event DailyReport, broadcast:")
for (_, line) in await host.broadcast(DailyReport(day: "2026-11-21")).replies {
    say("    \(line)")
}

say("HealthCheck, gathered with a 200 ms limit:")
for (module, outcome) in await host.gather(HealthCheck()).answers {
    say("    \(module): \(outcome.reply.map { $0 ? "healthy" : "unhealthy" } ?? "\(outcome)")")
}

say("Stopping in reverse start order:")
await host.terminate()

if arguments.contains("--timings") {
    say("Where the time went:")
    say(await host.timings.description)
}
