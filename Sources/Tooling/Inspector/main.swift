// section-registry: reads the SectionRegistry module records of an ELF
// binary without running it (and without readelf).
//
//   section-registry inspect [--json] BINARY
//   section-registry check BINARY [--expect NAME ...] [--host PROGRAM]
//   section-registry graph BINARY [--format dot|mermaid] [--disable NAME ...]
//
// Every command reads BINARY and the shared objects it needs, as the dynamic
// linker finds them (DT_NEEDED, LD_LIBRARY_PATH, DT_RUNPATH, the default
// folders): the images whose modules ModuleRegistry.linked() would find in a
// process of BINARY. `inspect` lists each image's modules, `check` applies
// the rules ModuleRegistry.linked() applies to them at run time. With --host, BINARY is a plugin checked as PROGRAM would load
// it with ModuleHost.load(plugin:): its modules may come after those of
// PROGRAM and its libraries, may not share their names, and must use
// PROGRAM's SectionRegistry, and the plugin file must be one load(plugin:)
// trusts, as the user running check: a regular file that only that user and
// root may change. `graph` prints the modules, the library each comes from,
// their levels, dependencies and start order as Graphviz DOT (`| dot -Tsvg > modules.svg`)
// or Mermaid.
//
// Exit status: 0 when all is well, 1 when `check` (or `graph`) finds a
// problem, 2 for a file that cannot be inspected or bad usage.
import ELFInspection
import Foundation
import ModuleRecords

let usage = """
    usage: section-registry inspect [--json] BINARY
           section-registry check BINARY [--expect NAME ...] [--host PROGRAM]
           section-registry graph BINARY [--format dot|mermaid] [--disable NAME ...]
    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("section-registry: \(message)\n".utf8))
    exit(status)
}

/// The binary at `path` and the shared objects it needs, each with its
/// module records (for a plugin, as `host` would load it), or exit 2 with
/// the reason.
func linkedImages(_ path: String, host: LinkedImages? = nil) -> LinkedImages {
    do {
        return try LinkedImages(path, host: host, environment: ProcessInfo.processInfo.environment)
    } catch {
        fail("\(error)")
    }
}

/// The options after a command's BINARY, as (name, value) pairs; exits with
/// the usage for an option not in `allowed` or without a value.
func options(_ arguments: ArraySlice<String>, allowed: Set<String>) -> [(name: String, value: String)] {
    var rest = arguments
    var pairs: [(name: String, value: String)] = []
    while let option = rest.popFirst() {
        guard allowed.contains(option), let value = rest.popFirst() else { fail(usage) }
        pairs.append((option, value))
    }
    return pairs
}

/// Writes a line about the file at `path` to standard error.
func warn(_ path: String, _ line: String) {
    FileHandle.standardError.write(Data("section-registry: \(path): \(line)\n".utf8))
}

/// Writes each problem of `path` to standard error, and exits 1 if there is any.
func report(_ problems: [String], of path: String) {
    for problem in problems { warn(path, problem) }
    if !problems.isEmpty { exit(1) }
}

/// What `load(plugin:)` would refuse about the plugin file at `path` itself
/// in a process of this user: the same check (``PluginFile``).
func pluginFileProblems(_ path: String) -> [String] {
    do {
        return try PluginFile(path).problems(checkingWriters: true).map(\.description)
    } catch {
        return [error.description]
    }
}

/// The note as one line, for `inspect`.
func describe(_ note: Result<ImageNote, NoteProblem>) -> String {
    guard case .success(let note) = note else { return "note: none usable (see below)" }
    func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
    let notes = note.count == 1 ? "1 note" : "\(note.count) notes"
    return "note: SectionRegistry 0x53520001 (\(notes)): app_modules \(hex(note.start))..\(hex(note.stop)), anchor \(hex(note.anchor))"
}

struct RecordRow: Codable {
    let name: String
    let level: String
    let priority: Int
    let after: [String]
    let flags: [String]
    let factory: String
    let sourceFile: String?
    let recordIndex: Int?
    /// The shared object that registers the module; `nil` for BINARY's own.
    let image: String?

    init(_ record: ModuleInspection.Record, image: String?) {
        self.image = image
        let declaration = record.declaration
        name = declaration.name
        level = declaration.level.description
        priority = declaration.priority
        after = declaration.dependencies
        flags = (declaration.startsConcurrently ? ["concurrent-start"] : []) + (declaration.isRequired ? ["required"] : [])
        factory = record.factorySymbol ?? "0x" + String(record.factoryAddress, radix: 16)
        sourceFile = declaration.location?.sourceFile
        recordIndex = declaration.location?.index
    }
}

func printTable(_ rows: [RecordRow]) {
    let header = ["name", "level", "priority", "after", "flags", "factory", "source", "image"]
    let cells = rows.map { row in
        [row.name, row.level, String(row.priority), row.after.joined(separator: ","), row.flags.joined(separator: ","),
         row.factory, row.sourceFile ?? "-", row.image.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "-"]
            .map { $0.isEmpty ? "-" : $0 }
    }
    let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max()! }
    for line in [header] + cells {
        let padded = zip(line, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
        print(padded.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage) }
arguments.removeFirst()

switch command {
case "inspect":
    let json = arguments.contains("--json")
    arguments.removeAll { $0 == "--json" }
    guard arguments.count == 1 else { fail(usage) }
    let images = linkedImages(arguments[0])
    let rows = images.modules.map { RecordRow($0.record, image: $0.image) }
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(rows), as: UTF8.self))
    } else {
        printTable(rows)
        for image in images.images {
            guard let inspection = image.inspection else { continue }
            let isRoot = image.path == arguments[0]
            print((isRoot ? "" : "\(image.path): ") + describe(inspection.note))
        }
    }
    for image in images.images where image.inspection?.hasSymbols == false {
        warn(image.path, "no symbol table (stripped): factories are shown by address")
    }
    for problem in images.problems() { warn(arguments[0], problem) }
    if !images.notFound.isEmpty {
        warn(arguments[0], "needed libraries not found, not read: \(images.notFound.joined(separator: ", "))")
    }

case "check":
    guard let path = arguments.first else { fail(usage) }
    var expected: [String] = []
    var hostPath: String?
    for (option, value) in options(arguments.dropFirst(), allowed: ["--expect", "--host"]) {
        switch option {
        case "--expect": expected.append(value)
        default:
            guard hostPath == nil else { fail(usage) }
            hostPath = value
        }
    }
    let host = hostPath.map { linkedImages($0) }
    let images = linkedImages(path, host: host)
    let records = images.withModules.flatMap { $0.inspection!.records }
    let names = records.map(\.declaration.name)
    let failures = (hostPath == nil ? [] : pluginFileProblems(path)) + images.problems(asPluginOf: host) + expected.filter { !names.contains($0) }.map {
        "expected module '\($0)' is not in app_modules.\(didYouMean($0, among: names))"
    }
    guard failures.isEmpty else {
        fail("\(path): check failed:\n" + failures.map { "  - \($0)" }.joined(separator: "\n"), status: 1)
    }
    print("section-registry: \(path): \(records.count) \(records.count == 1 ? "module" : "modules"), all checks passed: "
        + records.map(\.declaration.name).joined(separator: ", "))
    if images.withModules.count > 1 {
        for image in images.withModules {
            print("  \(image.path): " + image.inspection!.records.map(\.declaration.name).joined(separator: ", "))
        }
    }

case "graph":
    guard let path = arguments.first else { fail(usage) }
    var format = "dot"
    var disabled: Set<String> = []
    for (option, value) in options(arguments.dropFirst(), allowed: ["--format", "--disable"]) {
        switch option {
        case "--format":
            guard value == "dot" || value == "mermaid" else { fail(usage) }
            format = value
        default:
            disabled.insert(value)
        }
    }
    let images = linkedImages(path)
    let modules = images.modules
    let libraries = modules.compactMap { module in module.image.map { (module.record.declaration.name, URL(fileURLWithPath: $0).lastPathComponent) } }
    let graph = ModuleGraph(modules.map(\.record.declaration), disabled: disabled,
                            images: Dictionary(libraries, uniquingKeysWith: { first, _ in first }))
    print(format == "dot" ? graph.dot : graph.mermaid, terminator: "")
    report(images.imageProblems + graph.orderingProblems.map(\.description), of: path)

default:
    fail(usage)
}
