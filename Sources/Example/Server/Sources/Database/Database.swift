import Configuration
import PostgresNIO
import SectionRegistry

@c(app_module_Database) func makeDatabase() -> AppModuleHandle { AppModuleHandle(Database()) }

/// A service module: offers a `PostgresClient`, configured from its
/// configuration, `database.host`, `.port`, `.user`, `.password` (a secret:
/// never logged) and `.name` (in the environment DATABASE_HOST,
/// DATABASE_PORT, DATABASE_USER, DATABASE_PASSWORD, DATABASE_NAME). The client answers queries only while
/// its `run()` runs: this module's `run`. The host starts it as soon as this
/// module has started, and the modules that come after start once it reports
/// ready, so they can query in their `start`; the host asks it to finish only
/// once every module after this one has drained.
struct Database: AppModule {
    var runReportsReady: Bool { true }

    func setUp(_ context: ModuleContext) async throws {
        let config = context.config
        let configuration = PostgresClient.Configuration(
            host: config.string(forKey: "host", default: "127.0.0.1"),
            port: config.int(forKey: "port", default: 5432),
            username: config.string(forKey: "user", default: "notes"),
            password: config.string(forKey: "password", isSecret: true),
            database: config.string(forKey: "name", default: "notes"),
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
