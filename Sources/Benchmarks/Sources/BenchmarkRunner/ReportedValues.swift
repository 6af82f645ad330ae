/// The `key value` lines a benchmark process prints (Measurement.report in
/// RegistryBenchmarks), as numbers by key.
enum ReportedValues {
    /// Runs `command` `runs` times and returns, for each key of the first
    /// run, the median of its values over the runs.
    static func medians(of command: [String], runs: Int) throws -> [String: Double] {
        let samples = try (0..<runs).map { _ in try parse(ProcessTiming.output(of: command), from: command[0]) }
        var medians: [String: Double] = [:]
        for key in samples[0].keys {
            medians[key] = try samples.map { sample throws(RunnerError) in
                guard let value = sample[key] else { throw RunnerError("\(command[0]) reported \(key) in one run and not in another") }
                return value
            }.median
        }
        return medians
    }

    static func parse(_ output: String, from program: String) throws(RunnerError) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = Double(fields[1]) else {
                throw RunnerError("\(program) printed '\(line)', not a `key value` line")
            }
            values[String(fields[0])] = value
        }
        return values
    }
}
