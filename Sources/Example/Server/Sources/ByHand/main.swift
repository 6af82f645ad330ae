import Foundation
import Hummingbird
import Logging
import NotesRoutes
import PostgresNIO

// notes-by-hand: the notes routes served as a Hummingbird user writes them
// without modules, `app.runService()` with the client beside the app: what
// scripts/server-test.sh's keep-alive check (h) measures the modules
// against. It expects the table that the Notes module creates.
let environment = ProcessInfo.processInfo.environment
let logger = Logger(label: "notes-by-hand")
let client = PostgresClient(configuration: .init(
    host: environment["DATABASE_HOST"] ?? "127.0.0.1",
    port: environment["DATABASE_PORT"].flatMap { Int($0) } ?? 5432,
    username: environment["DATABASE_USER"] ?? "notes",
    password: environment["DATABASE_PASSWORD"],
    database: environment["DATABASE_NAME"] ?? "notes",
    tls: .disable
), backgroundLogger: logger)
let router = Router()
router.addNotesRoutes(client: client, logger: logger)
let port = environment["PORT"].flatMap { Int($0) } ?? 8080
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), services: [client],
    onServerRunning: { _ in logger.notice("by hand: ready") }, logger: logger)
try await app.runService()
