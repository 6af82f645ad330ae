import Hummingbird
import Routing
import SectionRegistry

@c(app_module_HTTP) func makeHTTP() -> AppModuleHandle { AppModuleHandle(HTTP()) }

/// A late module: serves the routes every module added, on 127.0.0.1 and
/// the port in PORT (8080 by default). The host is running once the server
/// has bound its port: a bind failure fails the launch. At the drain, it
/// stops its intake before the graceful shutdown (Intake.swift): no
/// request the kernel accepted is lost.
struct HTTP: AppModule {
    var runReportsReady: Bool { true }

    func run(_ context: ModuleContext) async throws {
        let port = context.environment["PORT"].flatMap { Int($0) } ?? 8080
        let intake = Intake()
        let app = Application(
            responder: try context.service(Routes.self).responder(),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "notes-server"),
            onServerRunning: { channel in
                intake.listening(on: channel)
                context.log("HTTP: ready on \(channel.localAddress.map { "\($0)" } ?? "?")")
                context.reportReady()
            },
            logger: context.logger
        )
        // On the host's drain request the server stops taking requests,
        // finishes those in flight, then returns.
        try await intake.serve(app, context)
    }
}
