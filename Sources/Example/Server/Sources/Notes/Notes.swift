import Configuration
import NotesRoutes
import PostgresNIO
import Routing
import SectionRegistry
import Synchronization

@c(app_module_Notes) func makeNotes() -> AppModuleHandle { AppModuleHandle(Notes()) }

/// A feature: creates its table in `start` (the database client is running
/// by then), and adds its routes. The largest note it takes is
/// `notes.maxBodyBytes` in its configuration (`NOTES_MAX_BODY_BYTES`, or
/// `{"notes": {"maxBodyBytes": ...}}` in the server's JSON file; 64 KiB by
/// default), read again at each reload: a changed file, or SIGHUP.
struct Notes: AppModule {
    /// `notes.maxBodyBytes`, as last read.
    let maxBodyBytes = Limit()

    final class Limit: Sendable {
        private let value = Atomic(64 * 1024)
        var bytes: Int { value.load(ordering: .relaxed) }
        func read(_ config: ConfigReader) -> Int {
            let bytes = config.int(forKey: "maxBodyBytes", default: 64 * 1024)
            value.store(bytes, ordering: .relaxed)
            return bytes
        }
    }

    /// The advisory lock the table's creation takes: "notes" in ASCII.
    static let tableLock: Int64 = 0x6E_6F_74_65_73

    func setUp(_ context: ModuleContext) async throws {
        context.log("Notes: notes up to \(maxBodyBytes.read(context.config)) bytes")
    }

    func reload(_ context: ModuleContext) async throws {
        context.log("Notes: reloaded, notes up to \(maxBodyBytes.read(context.config)) bytes")
    }

    func start(_ context: ModuleContext) async throws {
        let client = try context.service(PostgresClient.self)
        let logger = context.logger
        // Replicas started at once (a fleet's first deploy, tests in
        // parallel) create the table at once, and two concurrent CREATE
        // TABLE IF NOT EXISTS can fail on PostgreSQL's catalog (a duplicate
        // key in pg_type): a lock held until the transaction ends makes them
        // take turns.
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.tableLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)", logger: logger)
        }
        context.log("Notes: table notes is ready")

        try context.service(Routes.self).add { router in
            router.addNotesRoutes(client: client, logger: logger) { [maxBodyBytes] in maxBodyBytes.bytes }
        }
    }
}
