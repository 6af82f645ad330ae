import Foundation

/// Runs every benchmark program for each N and collects the results: the
/// generated programs (discovery modes, start-ups, the whole app against
/// the hand-written main, sizes) and `registry-bench host` (launch, dispatch).
struct BenchmarkRun {
    let options: RunnerOptions

    func measure() throws -> BenchmarkResults {
        var results = BenchmarkResults(options: options)
        for n in options.moduleCounts {
            for mode in ["registry", "typeByName", "manifest"] {
                for (key, value) in try ReportedValues.medians(of: [program("Discovery\(n)"), mode], runs: options.runs) {
                    results[key, n] = value
                }
            }
            let startups = [
                ("startup_empty", "StartupEmpty"), ("startup_registry", "Startup\(n)"),
                ("startup_bare", "BareStartup\(n)"), ("startup_plain", "StartupPlain"),
                ("startup_constructors", "ConstructorStartup\(n)"),
            ]
            for (key, name) in startups {
                results[key, n] = try ProcessTiming.medianMilliseconds(running: program(name), runs: options.startups)
            }
            (results["app_hosted", n], results["app_hand", n]) = try ProcessTiming.interleavedMedianMilliseconds(
                program("HostedApp\(n)"), program("HandApp\(n)"), runs: options.startups)

            let withRecords = try ELFSizes(of: program("Startup\(n)"))
            // The anchor is one 128-byte record of its own in every image.
            results["record_bytes", n] = Double(try withRecords.size(of: "app_modules") - 128) / Double(n)
            let empty = try ELFSizes(of: program("StartupEmpty"))
            results["module_bytes", n] = Double(withRecords.allocatedBytes - empty.allocatedBytes) / Double(n)
        }
        let host = [Self.runnerPath, "host"] + options.moduleCounts.map(String.init)
        for (key, value) in try ReportedValues.medians(of: host, runs: options.runs) {
            // "launch.100": the key, then N.
            guard let dot = key.lastIndex(of: "."), let n = Int(key[key.index(after: dot)...]) else {
                throw RunnerError("registry-bench host reported \(key), not KEY.N")
            }
            results[String(key[..<dot]), n] = value
        }
        return results
    }

    private func program(_ name: String) -> String {
        "\(options.programs)/\(name)"
    }

    /// This executable, which measures launch and dispatch as `registry-bench host`.
    private static var runnerPath: String {
        Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
