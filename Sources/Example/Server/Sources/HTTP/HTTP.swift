import Hummingbird
import Routing
import SectionRegistry

@c(app_module_HTTP) func makeHTTP() -> AppModuleHandle { AppModuleHandle(HTTP()) }

/// A late module: serves the routes every module added, on 127.0.0.1 and
/// the port in PORT (8080 by default). The host is running once the server
/// has bound its port: a bind failure fails the launch. At the host's
/// intake step it stops taking requests, and at its drain it shuts down
/// gracefully (Intake.swift): no request the kernel accepted is lost.
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
        // The server stops taking requests at the intake step, finishes
        // those in flight at the drain, then returns.
        try await intake.serve(app, context)
    }
}
