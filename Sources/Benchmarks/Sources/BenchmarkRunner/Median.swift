extension Array where Element == Double {
    /// The middle value, or the mean of the two middle values of an even
    /// count (as Python's `statistics.median`, which the table used before).
    var median: Double {
        precondition(!isEmpty, "the median of no samples")
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
