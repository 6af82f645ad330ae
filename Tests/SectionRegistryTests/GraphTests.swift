import ELFInspection
import Foundation
import SectionRegistry
import Testing

/// What a DOT graph of `section-registry graph` holds, read back from its
/// text: which cluster each node is in, its attributes, and the edges.
struct ParsedDOT {
    var clusterOf: [String: String] = [:]
    var attributes: [String: String] = [:]
    var edges: [String] = []

    init(_ text: String) throws {
        var cluster: String?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("//") {
                continue
            } else if line.hasPrefix("subgraph cluster_") {
                cluster = String(line.dropFirst("subgraph cluster_".count).prefix { $0 != " " })
            } else if line == "}" {
                cluster = nil
            } else if let arrow = line.range(of: " -> ") {
                edges.append(line[..<arrow.lowerBound].trimmingCharacters(in: ["\""]) + "->"
                    + line[arrow.upperBound...].trimmingCharacters(in: ["\"", ";"]))
            } else if line.hasPrefix("\""), let open = line.firstIndex(of: "[") {
                let name = line[..<open].trimmingCharacters(in: [" ", "\""])
                clusterOf[name] = cluster ?? ""
                attributes[name] = String(line[open...])
            }
        }
        try #require(text.hasPrefix("digraph modules {") && text.hasSuffix("}\n"))
    }
}

/// `section-registry graph`: the modules as a picture.
@Suite(.serialized) struct GraphTests {
    @Test func theDotGraphHasEveryModuleInItsLevelWithItsEdgesAndMarks() throws {
        let graph = ModuleGraph([
            ModuleDeclaration(name: "Accounts", level: .service),
            ModuleDeclaration(name: "Search", priority: 10, startsConcurrently: true),
            ModuleDeclaration(name: "Billing", after: ["Accounts", "Ledger"], startsConcurrently: true),
            ModuleDeclaration(name: "Audit", level: .late, after: ["Accounts"]),
        ], disabled: ["Search"])
        let dot = try ParsedDOT(graph.dot)
        #expect(dot.clusterOf == ["Accounts": "service", "Search": "feature", "Billing": "feature", "Audit": "late", "Ledger": ""])
        #expect(dot.edges == ["Accounts->Billing", "Ledger->Billing", "Accounts->Audit"])
        #expect(dot.attributes["Search"]?.contains("color=grey") == true, "disabled is greyed")
        #expect(dot.attributes["Billing"]?.contains("peripheries=2") == true, "concurrent start is marked")
        #expect(dot.attributes["Audit"]?.contains("peripheries") == false)
        #expect(dot.attributes["Ledger"]?.contains("not linked") == true)
        #expect(graph.orderingProblems == [.missingDependency(module: "Billing", dependency: "Ledger")])
    }

    @Test func startPositionsAreTheStartOrder() throws {
        let graph = ModuleGraph([  // in declared order
            ModuleDeclaration(name: "C", level: .core),
            ModuleDeclaration(name: "A", after: ["B"]),
            ModuleDeclaration(name: "B"),
        ])
        #expect(graph.startPosition == ["C": 1, "B": 2, "A": 3])
        let dot = try ParsedDOT(graph.dot)
        #expect(dot.attributes["A"]?.hasPrefix("[label=\"3. A\\n") == true, "\(dot.attributes)")
        #expect(graph.mermaid.contains("A[\"3. A<br/>priority 0\"]"))
        #expect(graph.mermaid.contains("subgraph level_core [level core]"))
    }

    /// The example's graph through the command line, as DOT and as Mermaid.
    func exampleGraph(_ extra: [String] = []) async throws -> CommandResult {
        let tools = try await InspectorTests().builtTools()
        return try await runCommand([tools.inspector, "graph", tools.example] + extra)
    }

    @Test func theCommandLineDrawsTheExample() async throws {
        let result = try await exampleGraph()
        #expect(result.status == 0, "\(result.output)")
        let dot = try ParsedDOT(result.output)
        #expect(dot.clusterOf == ["Accounts": "service", "Search": "feature", "Billing": "feature", "Audit": "late"])
        #expect(dot.edges == ["Accounts->Billing", "Accounts->Audit", "Billing->Audit"])
        let mermaid = try await exampleGraph(["--format", "mermaid", "--disable", "Search"])
        #expect(mermaid.status == 0, "\(mermaid.output)")
        #expect(mermaid.output.hasPrefix("flowchart TB\n"))
        #expect(mermaid.output.contains("class Search disabled"))
        let broken = try await exampleGraph(["--disable", "Accounts"])
        #expect(broken.status == 1, "a disabled dependency is reported")
        #expect(broken.output.contains("module 'Billing' comes after 'Accounts', which is disabled"))
    }

    static let dotIsInstalled = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/dot") }

    @Test(.enabled(if: dotIsInstalled, "Graphviz's dot is not installed here (.ci/run installs it): the SVG is not rendered"))
    func graphvizRendersTheExampleNamingEveryModule() async throws {
        let directory = try scratchDirectory("graph")
        let dotFile = directory.appendingPathComponent("modules.dot")
        let svgFile = directory.appendingPathComponent("modules.svg")
        try await exampleGraph().output.write(to: dotFile, atomically: true, encoding: .utf8)
        let rendering = try await runCommand(["dot", "-Tsvg", dotFile.path, "-o", svgFile.path])
        #expect(rendering.status == 0, "\(rendering.output)")
        let svg = try String(contentsOf: svgFile, encoding: .utf8)
        for module in ["Accounts", "Search", "Billing", "Audit"] {
            #expect(svg.contains("<title>\(module)</title>"), "\(module) is a node")
        }
        for label in ["1. Accounts", "2. Search", "3. Billing", "4. Audit", "level service", "level late"] {
            #expect(svg.contains(">\(label)</text>"), "\(label) is drawn")
        }
    }
}
