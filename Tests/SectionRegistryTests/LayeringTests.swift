import Foundation
import Testing

/// The host's folders are layers (HowItWorks.md, "Where the code is"): a
/// folder uses only types of the folders before it, so there is no cycle
/// between two of them. Read from the sources, as a reviewer would: a type
/// is used where its name appears outside comments and string literals.
@Suite struct LayeringTests {
    static let layers = [
        "Support", "Outcomes", "Observability", "Services", "Events", "Context", "Serving", "Integrations", "Module", "Plugins", "Lifecycle", "Host", "Process",
    ]
    /// Names that are also generic parameters or nested types elsewhere.
    static let ambiguous: Set = ["Event", "Result", "Body", "Code", "Value", "Reply", "Key", "State", "Kind", "Message"]

    @Test func eachFolderOfTheHostUsesOnlyTheFoldersBeforeIt() throws {
        let host = packageRoot.appendingPathComponent("Sources/SectionRegistry")
        var sources: [String: [(file: String, text: String)]] = [:]
        for layer in Self.layers {
            let folder = host.appendingPathComponent(layer)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                sources[layer, default: []].append((file, Self.code(of: text)))
            }
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: host.path).filter { !$0.hasSuffix(".docc") && !$0.hasSuffix(".swift") }
        #expect(Set(folders) == Set(Self.layers), "a folder of the host is not in the list of layers")
        let declaration = #/(?m)^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|final)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)/#
        var layerOfType: [String: Int] = [:]
        for (index, layer) in Self.layers.enumerated() {
            for source in sources[layer] ?? [] {
                for match in source.text.matches(of: declaration) where !Self.ambiguous.contains(String(match.1)) {
                    layerOfType[String(match.1)] = index
                }
            }
        }
        #expect(layerOfType.count > 40, "found only \(layerOfType.count) types: the pattern no longer reads the sources")
        for (index, layer) in Self.layers.enumerated() {
            for source in sources[layer] ?? [] {
                for (type, owner) in layerOfType where owner > index && source.text.contains(wholeWord: type) {
                    Issue.record("\(layer)/\(source.file) uses \(type) of \(Self.layers[owner]), a later layer")
                }
            }
        }
    }

    /// `text` without comments and string literals.
    static func code(of text: String) -> String {
        text.replacing(#/\/\/[^\n]*/#, with: "").replacing(#/"(?:[^"\\\n]|\\.)*"/#, with: "\"\"")
    }
}

extension String {
    fileprivate func contains(wholeWord word: String) -> Bool {
        var rest = self[...]
        while let range = rest.range(of: word) {
            let before = range.lowerBound == startIndex ? nil : self[index(before: range.lowerBound)]
            let after = range.upperBound == endIndex ? nil : self[range.upperBound]
            if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false), !(after.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) {
                return true
            }
            rest = self[range.upperBound...]
        }
        return false
    }
}
