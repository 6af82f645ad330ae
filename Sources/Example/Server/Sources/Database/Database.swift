import PostgresNIO
import SectionRegistry

@c(app_module_Database) func makeDatabase() -> AppModuleHandle { AppModuleHandle(Database()) }

/// A service module: offers a `PostgresClient`, configured from the
/// environment (DATABASE_HOST, DATABASE_PORT, DATABASE_USER,
/// DATABASE_PASSWORD, DATABASE_NAME). The client answers queries only while
/// its `run()` runs: this module's `run`. The host starts it as soon as this
/// module has started, and the modules that come after start once it reports
/// ready, so they can query in their `start`; the host asks it to finish only
/// once every module after this one has drained.
struct Database: AppModule {
    var runReportsReady: Bool { true }

    func setUp(_ context: ModuleContext) async throws {
        let environment = context.environment
        let configuration = PostgresClient.Configuration(
            host: environment["DATABASE_HOST"] ?? "127.0.0.1",
            port: environment["DATABASE_PORT"].flatMap { Int($0) } ?? 5432,
            username: environment["DATABASE_USER"] ?? "notes",
            password: environment["DATABASE_PASSWORD"],
            database: environment["DATABASE_NAME"] ?? "notes",
            tls: .disable
        )
        let client = PostgresClient(configuration: configuration, backgroundLogger: context.logger)
        try context.register(PostgresClient.self) { client }
    }

    func run(_ context: ModuleContext) async throws {
        let client = try context.service(PostgresClient.self)
        // Ready as the client's run begins: a dependent's first query then
        // finds it running (made earlier, PostgresClient waits for its run()
        // and warns that it "hasn't been called yet").
        context.reportReady()
        // Returns on the host's drain request (graceful shutdown) once the
        // queries under way have finished.
        await client.run()
    }
}
