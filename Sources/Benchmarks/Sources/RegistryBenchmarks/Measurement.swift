/// Timing for the benchmarks: medians of repeated samples, each long
/// enough for the clock's resolution not to matter.
public enum Measurement {
    private static let clock = ContinuousClock()

    /// The median time of one call of `body`, in nanoseconds, over `samples`
    /// samples of at least 2 ms each (one call per sample if a call is longer).
    public static func median(samples: Int = 11, _ body: () async -> Void) async -> Double {
        var callsPerSample = 1
        while await nanoseconds(calls: callsPerSample, body) < 2_000_000 && callsPerSample < 1 << 20 {
            callsPerSample *= 2
        }
        var perCall: [Double] = []
        for _ in 0..<samples {
            perCall.append(await nanoseconds(calls: callsPerSample, body) / Double(callsPerSample))
        }
        return perCall.sorted()[samples / 2]
    }

    /// The time of one call of `body`, in nanoseconds: for first, cold calls.
    public static func once<T>(_ body: () throws -> T) rethrows -> (nanoseconds: Double, result: T) {
        let start = clock.now
        let result = try body()
        return (Double(nanoseconds(start.duration(to: clock.now))), result)
    }

    private static func nanoseconds(calls: Int, _ body: () async -> Void) async -> Double {
        let start = clock.now
        for _ in 0..<calls { await body() }
        return Double(nanoseconds(start.duration(to: clock.now)))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Prints one result as `key value`, the line format `registry-bench table` reads.
    public static func report(_ key: String, _ value: Double) {
        print("\(key) \(value)")
    }
}
