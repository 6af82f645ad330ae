/// A goal a row of the table is measured against (issue 14's targets): a
/// bound on the value as the row shows it, at every N or at some.
struct Target {
    enum Bound {
        case atMost
        case atLeast
    }

    let bound: Bound
    /// The limit, in the row's unit.
    let limit: Double
    /// The unit as printed after the limit: "x" for ratios.
    let unit: String
    /// The N the target is set for; empty: every N.
    let moduleCounts: [Int]

    init(_ bound: Bound, _ limit: Double, unit: String = "x", at moduleCounts: [Int] = []) {
        self.bound = bound
        self.limit = limit
        self.unit = unit
        self.moduleCounts = moduleCounts
    }

    /// How a label says it: "target ≤ 1.1x at N = 100 and 1,000".
    var label: String {
        let limitText = limit == limit.rounded() ? NumberText.grouped(limit, decimals: 0) : NumberText.grouped(limit, decimals: 1)
        let scope = moduleCounts.isEmpty ? "" : " at N = \(NumberText.list(moduleCounts))"
        return "target \(bound == .atMost ? "≤" : "≥") \(limitText)\(unit)\(scope)"
    }

    func applies(to moduleCount: Int) -> Bool {
        moduleCounts.isEmpty || moduleCounts.contains(moduleCount)
    }

    func isMet(by value: Double) -> Bool {
        switch bound {
        case .atMost: value <= limit
        case .atLeast: value >= limit
        }
    }
}
