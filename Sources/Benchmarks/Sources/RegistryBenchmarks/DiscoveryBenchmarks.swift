import CRegistryBenchmarks
import Foundation
@_spi(Benchmarks) import SectionRegistry

/// Finding N linked modules: this registry against the raw C limit and the
/// seeds' alternatives. Run by the generated `DiscoveryN` executables, one
/// mode per process so that every "first pass" is a real first pass.
public enum DiscoveryBenchmarks {
    /// Measures the mode named by the first argument:
    /// - `registry`: discovery + validation + map: the first call of
    ///   `ModuleRegistry.linked()`, and warm (the same work, anew);
    ///   the raw C walk + map of the same section, warm; the walk of every
    ///   loaded image's notes that discovery starts with, warm;
    /// - `typeByName`: resolving the N class names with `_typeByName`, first pass;
    /// - `manifest`: reading and decoding the JSON manifest and resolving its
    ///   names with `_typeByName`, first pass;
    /// - `instructions`: discovery's first call, then one warm discovery and
    ///   one raw C walk + map, each once, untimed: `scripts/instructions.sh`
    ///   counts each function's instructions with callgrind's
    ///   `--toggle-collect` (counts need no repetitions).
    public static func run(moduleCount: Int, typeNamePrefix: String, manifest: String) async {
        let names = (0..<moduleCount).map { typeNamePrefix + "M" + String(repeating: "0", count: 5 - String($0).count) + String($0) }
        switch CommandLine.arguments.dropFirst().first {
        case "registry":
            let first = Measurement.once { try? ModuleRegistry.linked() }
            check(first.result?.modules.count == moduleCount, "discovery found \(first.result?.modules.count ?? 0) modules")
            Measurement.report("discovery_first", first.nanoseconds)
            Measurement.report("discovery", await Measurement.median { _ = try? ModuleRegistry.readLoadedImages() })
            check(raw_walk_and_map() == moduleCount, "the raw walk found \(raw_walk_and_map()) modules")
            Measurement.report("raw_c_walk", await Measurement.median { _ = raw_walk_and_map() })
            Measurement.report("images_walked", Double(walk_loaded_image_notes()))
            Measurement.report("image_walk", await Measurement.median { _ = walk_loaded_image_notes() })
        case "typeByName":
            let pass = Measurement.once { names.allSatisfy { _typeByName($0) != nil } }
            check(pass.result, "a name did not resolve")
            Measurement.report("type_by_name_first", pass.nanoseconds)
        case "manifest":
            let pass = Measurement.once { () -> Bool in
                guard let data = FileManager.default.contents(atPath: manifest),
                      let listed = try? JSONDecoder().decode([String].self, from: data) else { return false }
                return listed.count == moduleCount && listed.allSatisfy { _typeByName($0) != nil }
            }
            check(pass.result, "the manifest \(manifest) did not resolve")
            Measurement.report("manifest_first", pass.nanoseconds)
        case "instructions":
            // Each called once: callgrind counts every call of the function
            // it is told to. The C walk has no first-call work to leave out.
            check((try? ModuleRegistry.linked())?.modules.count == moduleCount, "discovery did not find \(moduleCount) modules")
            check((try? ModuleRegistry.readLoadedImages())?.modules.count == moduleCount, "warm discovery did not find \(moduleCount) modules")
            check(raw_walk_and_map() == moduleCount, "the raw walk did not find \(moduleCount) modules")
        default:
            check(false, "usage: \(CommandLine.arguments[0]) registry|typeByName|manifest|instructions")
        }
    }

    private static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        FileHandle.standardError.write(Data("benchmark: \(message())\n".utf8))
        exit(1)
    }
}
