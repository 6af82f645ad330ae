// registry-bench: the benchmark runner that scripts/bench.sh calls.
//   registry-bench host N...
//       launch and dispatch, measured in this process, as `key.N value`
//       lines in nanoseconds
//   registry-bench table --generated DIR [--runs R] [--startups S] N...
//       runs the programs scripts/generate-bench-package.sh generated (built
//       in DIR) and `registry-bench host`, and prints the markdown table
//   registry-bench peer --bin DIR [--runs R] N...
//       the drain peers (drain-tasks, drain-group, drain-host, built in DIR)
//       run in turn R times (default 30) at each N: median wall and CPU
//       times, as `drain_wall.PEER.N ms` and `drain_cpu.PEER.N ms` lines
import Foundation
import RegistryBenchmarks

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "host":
        await HostBenchmarks.run(moduleCounts: try RunnerOptions.moduleCounts(arguments.dropFirst()))
    case "table":
        let options = try RunnerOptions(parsing: arguments.dropFirst(), folderOption: "--generated", runs: 5)
        let results = try BenchmarkRun(options: options).measure()
        print(BenchmarkTable(results: results).markdown)
    case "peer":
        let options = try RunnerOptions(parsing: arguments.dropFirst(), folderOption: "--bin", runs: 30)
        try DrainPeerTiming.measure(binaries: options.programs, runs: options.runs, counts: options.moduleCounts).forEach { print($0) }
    default:
        throw RunnerError(RunnerOptions.usage)
    }
} catch {
    FileHandle.standardError.write(Data("registry-bench: \(error)\n".utf8))
    exit(2)
}
