// registry-bench: the benchmark runner that scripts/bench.sh calls.
//   registry-bench host N...
//       launch and dispatch, measured in this process, as `key.N value`
//       lines in nanoseconds
//   registry-bench table --generated DIR [--runs R] [--startups S] N...
//       runs the programs scripts/generate-bench-package.sh generated (built
//       in DIR) and `registry-bench host`, and prints the markdown table
import Foundation
import RegistryBenchmarks

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "host":
        await HostBenchmarks.run(moduleCounts: try RunnerOptions.moduleCounts(arguments.dropFirst()))
    case "table":
        let options = try RunnerOptions(parsing: arguments.dropFirst())
        let results = try BenchmarkRun(options: options).measure()
        print(BenchmarkTable(results: results).markdown)
    default:
        throw RunnerError(RunnerOptions.usage)
    }
} catch {
    FileHandle.standardError.write(Data("registry-bench: \(error)\n".utf8))
    exit(2)
}
