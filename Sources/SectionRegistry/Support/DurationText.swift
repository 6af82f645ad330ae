extension Duration {
    /// Milliseconds with two decimals, as `"12.34"`: for the timing table and
    /// the `duration` of log metadata.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let hundredths = String(microseconds % 1000 / 10)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 2 - hundredths.count) + hundredths
    }
}
