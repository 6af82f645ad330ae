import ModuleRecords

/// The modules of a binary and the shared objects it needs as a picture:
/// one node per module, grouped by level, an edge from each dependency to
/// the module that comes after it, a library's modules marked with its
/// file, concurrent starters marked, disabled modules greyed. Written as Graphviz
/// DOT or as Mermaid.
package struct ModuleGraph: Sendable {
    /// The modules, in declared order.
    package let declarations: [ModuleDeclaration]
    /// Modules drawn greyed and left out of the start order.
    package let disabled: Set<String>
    /// Each enabled module's place in the start order, from 1; empty when
    /// the modules cannot be ordered (see ``orderingProblems``).
    package let startPosition: [String: Int]
    /// Why the enabled modules cannot be ordered, if they cannot.
    package let orderingProblems: [OrderingProblem]
    /// The image (a shared object) that registers each module not in the
    /// program itself, by module name: drawn in the module's node.
    package let images: [String: String]

    package init(_ declarations: [ModuleDeclaration], disabled: Set<String> = [], images: [String: String] = [:]) {
        self.declarations = declarations
        self.disabled = disabled
        self.images = images
        do {
            let order = try StartOrder.resolve(declarations, disabled: disabled)
            startPosition = Dictionary(uniqueKeysWithValues: order.enumerated().map { (declarations[$1].name, $0 + 1) })
            orderingProblems = []
        } catch {
            startPosition = [:]
            orderingProblems = error.orderingProblems
        }
    }

    /// The levels that have modules, each with its modules in declared order.
    private var levels: [(level: ModuleLevel, modules: [ModuleDeclaration])] {
        ModuleLevel.allCases.compactMap { level in
            let modules = declarations.filter { $0.level == level }
            return modules.isEmpty ? nil : (level, modules)
        }
    }

    /// Dependencies no module declares: drawn as dashed nodes.
    private var missing: [String] {
        let names = Set(declarations.map(\.name))
        var seen: [String] = []
        for dependency in declarations.flatMap(\.dependencies) where !names.contains(dependency) && !seen.contains(dependency) {
            seen.append(dependency)
        }
        return seen
    }

    private var edges: [(from: String, to: String)] {
        declarations.flatMap { module in module.dependencies.map { ($0, module.name) } }
    }

    /// The lines of a node's label: position and name, then what is special.
    private func label(_ module: ModuleDeclaration) -> [String] {
        let position = startPosition[module.name].map { "\($0). " } ?? ""
        var lines = [position + module.name, "priority \(module.priority)"]
        if let image = images[module.name] { lines.append("in \(image)") }
        if module.startsConcurrently { lines.append("concurrent start") }
        if disabled.contains(module.name) { lines.append("disabled") }
        return lines
    }

    /// Graphviz DOT: levels as clusters, top to bottom in start order.
    package var dot: String {
        var lines = [
            "digraph modules {",
            "  // An edge A -> B: B comes after A (.after). Numbers: the start order.",
            "  rankdir=TB;",
            "  node [shape=box, style=rounded, fontname=Helvetica];",
            "  edge [color=\"#555555\"];",
        ]
        for (level, modules) in levels {
            lines.append("  subgraph cluster_\(level) {")
            lines.append("    label=\(Self.quoted("level \(level)"));")
            lines.append("    style=rounded; color=\"#999999\";")
            for module in modules {
                var attributes = ["label=\(Self.quoted(label(module).joined(separator: "\n")))"]
                if module.startsConcurrently { attributes.append("peripheries=2") }
                if disabled.contains(module.name) {
                    attributes += ["color=grey", "fontcolor=grey", "style=\"rounded,dashed,filled\"", "fillcolor=\"#eeeeee\""]
                }
                lines.append("    \(Self.quoted(module.name)) [\(attributes.joined(separator: ", "))];")
            }
            lines.append("  }")
        }
        for name in missing {
            lines.append("  \(Self.quoted(name)) [label=\(Self.quoted("\(name)\nnot linked")), color=red, fontcolor=red, style=dashed];")
        }
        for (from, to) in edges {
            lines.append("  \(Self.quoted(from)) -> \(Self.quoted(to));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Mermaid flowchart: levels as subgraphs, concurrent starters as
    /// double-edged (subroutine) nodes.
    package var mermaid: String {
        var lines = ["flowchart TB"]
        for (level, modules) in levels {
            lines.append("  subgraph level_\(level) [level \(level)]")
            for module in modules {
                let text = "\"" + label(module).joined(separator: "<br/>") + "\""
                lines.append("    \(module.name)" + (module.startsConcurrently ? "[[\(text)]]" : "[\(text)]"))
            }
            lines.append("  end")
        }
        for name in missing {
            lines.append("  \(name)[\"\(name)<br/>not linked\"]")
        }
        for (from, to) in edges {
            lines.append("  \(from) --> \(to)")
        }
        let greyed = declarations.map(\.name).filter(disabled.contains)
        if !greyed.isEmpty {
            lines.append("  classDef disabled fill:#eeeeee,stroke:#999999,color:#999999,stroke-dasharray: 4 2")
            lines.append("  class \(greyed.joined(separator: ",")) disabled")
        }
        if !missing.isEmpty {
            lines.append("  classDef missing stroke:#cc0000,color:#cc0000,stroke-dasharray: 4 2")
            lines.append("  class \(missing.joined(separator: ",")) missing")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string literal: module names are C identifiers, but labels hold
    /// line breaks.
    private static func quoted(_ text: String) -> String {
        let escaped = text.map { character -> String in
            switch character {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            default: String(character)
            }
        }
        return "\"" + escaped.joined() + "\""
    }
}
