import NotesRoutes
import PostgresNIO
import Routing
import SectionRegistry

@c(app_module_Notes) func makeNotes() -> AppModuleHandle { AppModuleHandle(Notes()) }

/// A feature: creates its table in `start` (the database client is running
/// by then), and adds its routes.
struct Notes: AppModule {
    func start(_ context: ModuleContext) async throws {
        let client = try context.service(PostgresClient.self)
        let logger = context.logger
        try await client.query("CREATE TABLE IF NOT EXISTS notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)", logger: logger)
        context.log("Notes: table notes is ready")

        try context.service(Routes.self).add { router in
            router.addNotesRoutes(client: client, logger: logger)
        }
    }
}
