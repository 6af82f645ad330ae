import Foundation
import Testing

/// Servers.md shows the server example's files whole, "every name
/// defined": each must be the file as it is, so that the article cannot
/// drift from the code that CI builds and tests (scripts/server-test.sh).
@Suite struct ServersArticleTests {
    static let files = [
        "Package.swift",
        "Sources/RoutingRegistration/routing.c", "Sources/DatabaseRegistration/database.c",
        "Sources/NotesRegistration/notes.c", "Sources/HTTPRegistration/http.c",
        "Sources/Routing/Routing.swift", "Sources/Database/Database.swift", "Sources/Notes/Notes.swift",
        "Sources/HTTP/HTTP.swift", "Sources/Server/main.swift", "Sources/Supervised/main.swift",
    ]

    @Test(arguments: files) func theArticleQuotesTheExamplesFileWhole(_ file: String) throws {
        let article = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/SectionRegistry/SectionRegistry.docc/Servers.md"), encoding: .utf8)
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Sources/Example/Server/\(file)"), encoding: .utf8)
        let fence = file.hasSuffix(".c") ? "```c\n" : "```swift\n"
        #expect(article.contains(fence + source + "```"), "Servers.md does not show \(file) as it is")
    }
}
