import Foundation
import Testing

/// The articles that show an example's files whole, "every name defined"
/// (Servers.md, CommandLineTools.md): each must be the file as it is, so
/// that an article cannot drift from the code that CI builds and tests
/// (scripts/server-test.sh, scripts/toolbox-test.sh).
@Suite struct ExampleArticleTests {
    struct Quote: Sendable, CustomTestStringConvertible {
        let article: String
        let example: String
        let file: String
        var testDescription: String { "\(article): \(example)/\(file)" }
    }

    static let quotes = [
        "Package.swift",
        "Sources/RoutingRegistration/routing.c", "Sources/DatabaseRegistration/database.c",
        "Sources/NotesRegistration/notes.c", "Sources/TelemetryRegistration/telemetry.c", "Sources/HTTPRegistration/http.c",
        "Sources/Routing/Routing.swift", "Sources/Database/Database.swift", "Sources/Notes/Notes.swift",
        "Sources/NotesRoutes/NotesRoutes.swift", "Sources/ByHand/main.swift",
        "Sources/HTTP/HTTP.swift", "Sources/Server/main.swift", "Sources/Telemetry/Telemetry.swift", "Sources/Server/SpanFile.swift",
        "Sources/Supervised/main.swift",
        "Tests/ServerTests/NotesTests.swift",
    ].map { Quote(article: "Servers.md", example: "Server", file: $0) } + [
        "Package.swift", "Sources/Server/main.swift", "Sources/RoutesRegistration/routes.c", "Sources/JobsRegistration/jobs.c",
        "Sources/HTTPRegistration/http.c", "Sources/Jobs/Jobs.swift", "Sources/Routes/Routes.swift", "Sources/HTTP/HTTP.swift",
    ].map { Quote(article: "Servers.md", example: "VaporServer", file: $0) } + [
        "Package.swift", "Sources/GreetCommand/Greet.swift", "Sources/Greet/Greet.swift", "Sources/GreetRegistration/greet.c",
        "Sources/Phrasebook/Phrasebook.swift", "Sources/Phrasebook/TranslateCommand.swift", "Sources/Toolbox/main.swift",
    ].map { Quote(article: "CommandLineTools.md", example: "Toolbox", file: $0) } + [
        "Sources/ToolboxKit/ListCommands.swift", "Sources/Hello/Hello.swift", "Sources/ToolboxKit/RunCommand.swift",
        "Sources/ToolboxKit/ToolboxHost.swift", "Sources/ToolboxByHand/main.swift",
    ].map { Quote(article: "CommandLineTools.md", example: "Toolbox", file: $0) }

    @Test(arguments: quotes) func theArticleQuotesTheExamplesFileWhole(_ quote: Quote) throws {
        let article = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/SectionRegistry/SectionRegistry.docc/\(quote.article)"), encoding: .utf8)
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Sources/Example/\(quote.example)/\(quote.file)"), encoding: .utf8)
        let fence = quote.file.hasSuffix(".c") ? "```c\n" : "```swift\n"
        #expect(article.contains(fence + source + "```"), "\(quote.article) does not show \(quote.file) as it is")
    }
}
