import Routes
import SectionRegistry
import Vapor

@c(app_module_HTTP) func makeExecuteHTTP() -> AppModuleHandle { AppModuleHandle(ExecuteHTTP()) }

/// The HTTP module as a new Vapor user first writes it: `app.execute()`,
/// whose serve command puts a Dispatch signal source on SIGTERM and SIGINT
/// over the host's handlers. The host notices within a second, and both
/// hear each SIGTERM from then on: Vapor stops its server, the host drains
/// and stops every module, and the process exits 0. HTTP.swift is how a
/// module should serve: the host alone drains it, in its turn.
struct ExecuteHTTP: AppModule {
    var runReportsReady: Bool { true }

    func run(_ context: ModuleContext) async throws {
        let app = try await Application.make(Environment(name: "production", arguments: ["vapor-execute-server"]), logger: context.logger)
        try context.service(RouteTable.self).apply(to: app)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = context.environment["PORT"].flatMap { Int($0) } ?? 8080
        context.reportReady()
        do {
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
