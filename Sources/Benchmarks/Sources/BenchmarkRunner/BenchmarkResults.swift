/// Every measurement of one run of the table, by N and key: nanoseconds for
/// in-process measurements, milliseconds for whole processes, bytes for sizes.
struct BenchmarkResults {
    let options: RunnerOptions
    private var values: [Int: [String: Double]] = [:]

    init(options: RunnerOptions) {
        self.options = options
    }

    var moduleCounts: [Int] { options.moduleCounts }

    subscript(key: String, moduleCount: Int) -> Double {
        get {
            guard let value = values[moduleCount]?[key] else {
                preconditionFailure("no measurement \(key) for N = \(moduleCount): BenchmarkRun does not measure it")
            }
            return value
        }
        set { values[moduleCount, default: [:]][key] = newValue }
    }

    /// The N before `moduleCount` in the table, if any.
    func previous(_ moduleCount: Int) -> Int? {
        guard let index = moduleCounts.firstIndex(of: moduleCount), index > 0 else { return nil }
        return moduleCounts[index - 1]
    }
}
