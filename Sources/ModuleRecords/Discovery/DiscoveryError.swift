/// Discovery found the `app_modules` section unusable. Nothing was created.
///
/// Lists every problem found, not just the first, so that one rebuild can
/// fix them all.
public struct DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in section order.
    public let problems: [DiscoveryProblem]

    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        let lines = problems.flatMap { $0.description.split(separator: "\n") }
        return "SectionRegistry: \(count) in the app_modules section:\n" + lines.map { "  - \($0)" }.joined(separator: "\n")
    }
}
