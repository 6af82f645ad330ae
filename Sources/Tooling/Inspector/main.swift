// section-registry: reads the SectionRegistry module records of an ELF
// binary without running it (and without readelf).
//
//   section-registry inspect [--json] BINARY
//   section-registry check BINARY [--expect NAME ...] [--host PROGRAM]
//
// With --host, BINARY is a plugin checked as PROGRAM would load it: its
// modules may come after PROGRAM's, and may not share their names.
//
// Exit status: 0 when all is well, 1 when `check` finds a problem, 2 for a
// file that cannot be inspected or bad usage.
import ELFInspection
import Foundation
import SectionRegistry

let usage = """
    usage: section-registry inspect [--json] BINARY
           section-registry check BINARY [--expect NAME ...] [--host PROGRAM]
    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("section-registry: \(message)\n".utf8))
    exit(status)
}

/// The binary's module records, or exit 2 with the reason.
func inspect(_ path: String) -> ModuleInspection {
    guard let data = FileManager.default.contents(atPath: path) else { fail("\(path): cannot read the file") }
    do {
        return try ModuleInspection(ELFFile(bytes: Array(data)))
    } catch let error as ELFError {
        fail("\(path): \(error)")
    } catch {
        fail("\(path): \(error)")
    }
}

/// The section's problems, one line each (a record's defects are one line
/// apiece).
func lines(of problems: [DiscoveryProblem]) -> [String] {
    problems.flatMap { $0.description.split(separator: "\n").map(String.init) }
}

/// What `inspect`, and `check` without `--host`, report as wrong.
func problems(of inspection: ModuleInspection) -> [String] {
    lines(of: inspection.problems) + inspection.orderingProblems.map(\.description)
        + inspection.orphanFactories.map(RegistryRules.orphanFactoryProblem)
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

    init(_ record: ModuleInspection.Record) {
        let declaration = record.declaration
        name = declaration.name
        level = declaration.level.description
        priority = declaration.priority
        after = declaration.dependencies
        flags = declaration.startsConcurrently ? ["concurrent-start"] : []
        factory = record.factorySymbol ?? "0x" + String(record.factoryAddress, radix: 16)
        sourceFile = declaration.location?.sourceFile
        recordIndex = declaration.location?.index
    }
}

func printTable(_ rows: [RecordRow]) {
    let header = ["name", "level", "priority", "after", "flags", "factory", "source"]
    let cells = rows.map { row in
        [row.name, row.level, String(row.priority), row.after.joined(separator: ","), row.flags.joined(separator: ","),
         row.factory, row.sourceFile ?? "-"].map { $0.isEmpty ? "-" : $0 }
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
    let inspection = inspect(arguments[0])
    let rows = inspection.records.map(RecordRow.init)
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(rows), as: UTF8.self))
    } else {
        printTable(rows)
    }
    if !inspection.hasSymbols {
        FileHandle.standardError.write(Data("section-registry: \(arguments[0]): no symbol table (stripped): factories are shown by address\n".utf8))
    }
    for problem in problems(of: inspection) {
        FileHandle.standardError.write(Data("section-registry: \(arguments[0]): \(problem)\n".utf8))
    }

case "check":
    guard let path = arguments.first else { fail(usage) }
    var expected: [String] = []
    var hostPath: String?
    var rest = arguments.dropFirst()
    while let option = rest.popFirst() {
        switch (option, rest.popFirst()) {
        case ("--expect", let name?): expected.append(name)
        case ("--host", let program?) where hostPath == nil: hostPath = program
        default: fail(usage)
        }
    }
    let inspection = inspect(path)
    let found = Set(inspection.records.map(\.declaration.name))
    let missing = expected.filter { !found.contains($0) }
    var failures: [String]
    if let hostPath {
        let asPlugin = inspection.problems(asPluginOf: inspect(hostPath))
        failures = lines(of: inspection.problems)
            + asPlugin.duplicateNames.map { "module '\($0)' is registered by \(hostPath) already: rename one of them" }
            + asPlugin.ordering.map(\.description)
            + inspection.orphanFactories.map(RegistryRules.orphanFactoryProblem)
    } else {
        failures = problems(of: inspection)
    }
    failures += missing.map { "expected module '\($0)' is not in app_modules" }
    guard failures.isEmpty else {
        fail("\(path): check failed:\n" + failures.map { "  - \($0)" }.joined(separator: "\n"), status: 1)
    }
    print("section-registry: \(path): \(inspection.records.count) modules, all checks passed: "
        + inspection.records.map(\.declaration.name).joined(separator: ", "))

default:
    fail(usage)
}
