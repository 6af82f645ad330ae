import Hummingbird
import Logging
import PostgresNIO
import SectionRegistry
import ServiceLifecycle
import UnixSignals

// notes-supervised: the same four modules, with the host as one service of
// a ServiceGroup, beside a health endpoint outside the modules (on
// ADMIN_PORT, 8081 by default) and a service that turns SIGHUP into a
// reload. The group owns the signals: SIGTERM and SIGINT shut it down
// gracefully, in reverse order (Health, then the host's drain).

/// Reloads the host on SIGHUP. A ServiceGroup takes only the signals it is
/// given, and SIGHUP's default action ends the process.
struct ReloadOnHangup: Service {
    let host: ModuleHost

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            _ = await host.reload()
        }
    }
}

/// `GET /health` outside the modules: once they run, it asks the database
/// client that the Database module registered.
struct Health: Service {
    let host: ModuleHost
    let port: Int
    let logger: Logger

    func run() async throws {
        guard await host.waitUntilRunning() else { return }
        let client = try host.service(PostgresClient.self)
        let router = Router()
        router.get("/health") { _, _ in
            try await client.query("SELECT 1", logger: logger)
            return "ok\n"
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger).run()
    }
}

LoggingSystem.bootstrap(StreamLogHandler.standardError)
let logger = Logger(label: "notes")
var configuration = HostConfiguration()
configuration.servesSignals = false   // the group owns SIGTERM and SIGINT
configuration.log = .logger(logger)   // the host's lines, the modules' and their libraries': one format, one stream
let host = ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration)
let adminPort = configuration.environment["ADMIN_PORT"].flatMap { Int($0) } ?? 8081
// A module's requestShutdown() ends the host's run() normally: the group then
// shuts down gracefully, instead of throwing serviceFinishedUnexpectedly.
// Named services: a default ServiceConfiguration names each with reflection.
try await ServiceGroup(configuration: ServiceGroupConfiguration(
    services: [
        .init(service: host, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "modules"),
        .init(service: ReloadOnHangup(host: host), serviceName: "reload-on-sighup"),
        .init(service: Health(host: host, port: adminPort, logger: logger), serviceName: "health"),
    ],
    gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger
)).run()
