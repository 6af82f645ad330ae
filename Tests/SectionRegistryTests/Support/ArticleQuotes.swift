import Foundation
import Testing

/// The engine's messages the articles and the README quote, and how a test
/// that provokes one checks the quote against what the engine printed.
///
/// A quote is a line of a code block, or a span in backticks, that begins
/// with `SectionRegistry: ` (after a log level, if any). `...` in a quote
/// stands for text left out. Numbers and absolute paths vary between the
/// article and a test (`30.0 seconds` there, the test's 0.2 s limit here;
/// `/opt/app/plugins` there, a scratch folder here): both sides have them
/// replaced before they are compared.
enum ArticleQuotes {
    /// Every article, and the README.
    static let articles: [String] = {
        let docs = packageRoot.appendingPathComponent("Sources/SectionRegistry/SectionRegistry.docc")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted() + ["README.md"]
    }()

    static func text(of article: String) -> String {
        let url = article == "README.md"
            ? packageRoot.appendingPathComponent("README.md")
            : packageRoot.appendingPathComponent("Sources/SectionRegistry/SectionRegistry.docc/\(article)")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// The quotes of `article`, each the text after `SectionRegistry: `,
    /// its whitespace collapsed.
    static func quotes(in article: String) -> [String] {
        let text = text(of: article)
        var quotes: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock, let match = line.firstMatch(of: /^\s*(?:\^C)?(?:[A-Z]+ )?SectionRegistry: (.*)$/) {
                quotes.append(collapsed(String(match.1)))
            }
        }
        // Inline, across the line breaks of a paragraph.
        for match in text.matches(of: /`(?:[A-Z]+ )?SectionRegistry: ([^`]*)`/) {
            quotes.append(collapsed(String(match.1)))
        }
        return quotes
    }

    /// The one quote of `article` that begins with `start`.
    static func quote(in article: String, startingWith start: String) -> String? {
        let found = quotes(in: article).filter { $0.hasPrefix(start) }
        return found.count == 1 ? found[0] : nil
    }

    /// Whether `message` (or one of its lines) says what `quote` does.
    static func says(_ message: String, _ quote: String) -> Bool {
        let parts = normalized(quote).components(separatedBy: "...").map { $0.trimmingCharacters(in: .whitespaces) }
        let lines = message.split(separator: "\n").map { normalized(fromEngine(String($0))) }
        return lines.contains { line in
            guard parts.count > 1 else { return line == parts[0] }
            guard line.hasPrefix(parts[0]) else { return false }
            var rest = line.dropFirst(parts[0].count)
            for part in parts.dropFirst() where !part.isEmpty {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
    }

    /// Checks that `article` quotes the message that begins with `start`
    /// as the engine printed it in `output`, once `renamed` (the article's
    /// names to the test's, in order) is applied to the quote.
    static func expectQuoted(
        in article: String, startingWith start: String, printed output: String, renamed: [(String, String)] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard var quote = quote(in: article, startingWith: start) else {
            Issue.record("\(article) has no one quote that begins with \"\(start)\"", sourceLocation: sourceLocation)
            return
        }
        for (old, new) in renamed { quote = quote.replacingOccurrences(of: old, with: new) }
        #expect(says(output, quote), "\(article) quotes \"\(quote)\"; the engine printed:\n\(output)", sourceLocation: sourceLocation)
    }

    private static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A printed line from the engine's message on: after what a program
    /// printed before it, its log level and `SectionRegistry: `.
    private static func fromEngine(_ line: String) -> String {
        guard let prefix = line.firstRange(of: "SectionRegistry: ") else { return line }
        return String(line[prefix.upperBound...])
    }

    /// Without numbers and paths.
    private static func normalized(_ text: String) -> String {
        let text = collapsed(text)
        return text.replacing(#/(?<lead>^|[\s(])/[^\s:),]+/#) { "\($0.lead)PATH" }.replacing(/\d+(\.\d+)?/, with: "#")
    }
}
