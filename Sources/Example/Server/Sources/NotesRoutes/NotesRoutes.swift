import Hummingbird
import PostgresNIO

/// A note, as the routes answer it.
struct Note: ResponseEncodable {
    let id: Int
    let body: String
}

/// Every note, oldest first.
struct NoteList: ResponseEncodable {
    let notes: [Note]
}

extension Router<BasicRequestContext> {
    /// The notes routes, on `client`'s table `notes`: the Notes module adds
    /// them, and so does `notes-by-hand`, the same routes without modules.
    /// `maxBodyBytes`: the largest note a POST takes, read at each request
    /// (a larger one is answered 413 Content Too Large).
    public func addNotesRoutes(client: PostgresClient, logger: Logger, maxBodyBytes: @escaping @Sendable () -> Int = { 64 * 1024 }) {
        get("/notes") { _, _ in
            var notes: [Note] = []
            for try await (id, body) in try await client.query("SELECT id, body FROM notes ORDER BY id", logger: logger).decode((Int, String).self) {
                notes.append(Note(id: id, body: body))
            }
            return NoteList(notes: notes)
        }
        post("/notes") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: maxBodyBytes()))
            let rows = try await client.query("INSERT INTO notes (body) VALUES (\(body)) RETURNING id", logger: logger)
            for try await id in rows.decode(Int.self) {
                return EditedResponse(status: .created, response: Note(id: id, body: body))
            }
            throw HTTPError(.internalServerError, message: "the insert returned no id")
        }
        // Sleeps, then reads the database: a request that is in flight
        // for a while, to see a drain finish it.
        get("/slow") { request, _ in
            let milliseconds = request.uri.queryParameters.get("ms", as: Int.self) ?? 1000
            try await Task.sleep(for: .milliseconds(milliseconds))
            for try await count in try await client.query("SELECT count(*) FROM notes", logger: logger).decode(Int.self) {
                return "slept \(milliseconds) ms; \(count) notes\n"
            }
            throw HTTPError(.internalServerError, message: "the count returned no row")
        }
    }
}
