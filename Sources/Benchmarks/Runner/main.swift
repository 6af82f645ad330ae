// registry-bench [N...]: launch and dispatch benchmarks, as `key.N value`
// lines in nanoseconds (scripts/bench.sh makes the table).
import RegistryBenchmarks

let counts = CommandLine.arguments.dropFirst().compactMap { Int($0) }
await HostBenchmarks.run(moduleCounts: counts.isEmpty ? [100, 1_000, 10_000] : counts)
