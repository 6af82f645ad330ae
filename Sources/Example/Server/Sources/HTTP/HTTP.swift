import Configuration
import Hummingbird
import Routing
import SectionRegistry

@c(app_module_HTTP) func makeHTTP() -> AppModuleHandle { AppModuleHandle(HTTP()) }

/// A late module: serves the routes every module added, on 127.0.0.1 and
/// the port `http.port` of its configuration (HTTP_PORT, or `--http-port`;
/// 8080 by default). `context.serve(app)` (the
/// `Hummingbird` trait) reports it ready once the server has bound its port,
/// so a bind failure fails the launch; says `Connection: close` once the
/// host's shutdown began; stops the intake at the host's intake step; and
/// shuts the server down gracefully at the drain: no request the kernel
/// accepted is lost. `health: .standard` answers the probes of a load
/// balancer or Kubernetes: `/health/live`, 200 while the server serves;
/// `/health/ready`, 200 while the host is ready, 503 from the moment its
/// shutdown begins; and the shutdown's lame duck lasts until the balancers
/// probing `/health/ready` have seen the 503s.
struct HTTP: AppModule {
    var runReportsReady: Bool { true }

    func run(_ context: ModuleContext) async throws {
        let port = context.config.int(forKey: "port", default: 8080)
        let app = Application(
            responder: try context.service(Routes.self).responder(),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "notes-server"),
            onServerRunning: { channel in
                context.log("HTTP: ready on \(channel.localAddress.map { "\($0)" } ?? "?")")
            },
            logger: context.logger
        )
        try await context.serve(app, health: .standard)
    }
}
