import Configuration
import Foundation
import InMemoryTracing
import Metrics
import Prometheus
import SectionRegistry
import SystemPackage

// The modules register themselves by being linked (Package.swift); the host
// finds them, starts them in their order, serves SIGTERM, SIGINT and SIGHUP,
// drains and stops them. Exit status 0, 1 (the launch failed, or a run) or 3
// (shutdown unclean).

// The configuration every module reads its slice of (`context.config`) and
// the host its settings: the command line first, then the environment, then
// the JSON file named by `server.configFile` (SERVER_CONFIG_FILE, or
// --server-config-file), if any. The file is read again every
// `server.configPollSeconds` (2 by default) and at each SIGHUP; a change
// calls the modules' reload hooks. Behind a load balancer, set
// `sectionRegistry.lameDuckDelay` (SECTION_REGISTRY_LAME_DUCK_DELAY=1.5):
// at SIGTERM, /health/ready answers 503 at once and every module serves on
// that long while the balancer notices.
var providers: [any ConfigProvider] = [CommandLineArgumentsProvider(), EnvironmentVariablesProvider()]
let server = ConfigReader(providers: providers).scoped(to: "server")
if let file = server.string(forKey: "configFile") {
    do {
        providers.append(try await ReloadingFileProvider<JSONSnapshot>(
            filePath: FilePath(file), pollInterval: .seconds(server.int(forKey: "configPollSeconds", default: 2))))
    } catch {
        FileHandle.standardError.write(Data("notes-server: cannot read the configuration file \(file): \(error)\n".utf8))
        exit(1)
    }
}
var configuration = HostConfiguration()
configuration.configProviders = providers

// Metrics: swift-prometheus, served at GET /metrics by the Telemetry module.
MetricsSystem.bootstrap(PrometheusMetricsFactory())

// Traces: with `server.spansFile` (SERVER_SPANS_FILE), the host's spans are
// kept in memory and written to that file as JSON lines when the process
// exits: a file exporter for a machine with no collector. With a collector,
// bootstrap swift-otel's exporter here instead (InstrumentationSystem).
if let spansFile = server.string(forKey: "spansFile") {
    SpanFile.path = spansFile
    configuration.tracer = SpanFile.tracer
    atexit { SpanFile.write() }
}

await ModuleHost.main(configuration: configuration)
