import Configuration
import Foundation
import Hummingbird
import HummingbirdTesting
import SectionRegistry
import SectionRegistryTesting
import Testing
@testable import Database
@testable import Notes
@testable import Routing

/// Notes' routes through HummingbirdTesting's router client, with the real
/// Routing and Database modules: PostgreSQL as DATABASE_HOST, _PORT, _USER,
/// _PASSWORD and _NAME say (scripts/server-test.sh starts one and sets them).
@Test func notesKeepsWhatIsPostedInTheDatabase() async throws {
    let database = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("DATABASE_") }
    try await withTestHost([
        // As their records declare them (level, after), with their factories.
        .linked("Routing"), .linked("Database"), .linked("Notes"),
    ], configuration: { $0.environment = database }) { test in
        let app = Application(responder: try test.context.service(Routes.self).responder())
        try await app.test(.router) { client in
            let body = "a note from NotesTests \(UUID())"
            try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/notes", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(body))
            }
        }
        #expect(test.log.lines(of: "Notes").map(\.message) == ["Notes: notes up to 65536 bytes", "Notes: table notes is ready"])
    }
}

/// The largest note is `notes.maxBodyBytes`, read again at each reload: a
/// provider of the test's own stands in for the server's JSON file.
@Test func notesTakesTheLargestNoteItsConfigurationSaysAgainAtEachReload() async throws {
    let database = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("DATABASE_") }
    let file = MutableInMemoryProvider(initialValues: ["notes.maxBodyBytes": 10])
    try await withTestHost([.linked("Routing"), .linked("Database"), .linked("Notes")], configuration: {
        $0.configProviders = [file, EnvironmentVariablesProvider(environmentVariables: database)]
    }) { test in
        let app = Application(responder: try test.context.service(Routes.self).responder())
        try await app.test(.router) { client in
            let note = ByteBuffer(string: "twenty bytes of note")
            try await client.execute(uri: "/notes", method: .post, body: note) { response in
                #expect(response.status == .contentTooLarge)
            }
            file.setValue(100, forKey: "notes.maxBodyBytes")
            await test.host.reload()
            try await client.execute(uri: "/notes", method: .post, body: note) { response in
                #expect(response.status == .created)
            }
        }
        #expect(test.log.lines(of: "Notes").map(\.message).first == "Notes: notes up to 10 bytes")
        #expect(test.log.lines(of: "Notes").map(\.message).last == "Notes: reloaded, notes up to 100 bytes")
    }
}
