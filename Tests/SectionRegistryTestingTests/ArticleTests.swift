import Foundation
import Testing

/// Testing.md shows each file of Examples/ whole: the article's code is the
/// code these tests compile and run.
@Suite struct ArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let examples = ["Greetings.swift", "GreetingsTests.swift", "Pinger.swift", "PingerTests.swift", "TickerTests.swift"]

    @Test(arguments: examples) func theArticleShowsTheExampleWhole(_ file: String) throws {
        let article = try String(contentsOf: Self.root.appendingPathComponent(
            "../../Sources/SectionRegistry/SectionRegistry.docc/Testing.md").standardized, encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Examples/\(file)"), encoding: .utf8)
        #expect(article.contains("```swift\n" + source + "```"), "Testing.md does not show Examples/\(file) as it is")
    }

    @Test func everyExampleIsInTheArticle() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Examples").path)
        #expect(files.sorted() == Self.examples.sorted())
    }
}
