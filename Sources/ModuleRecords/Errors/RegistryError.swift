/// The linked modules cannot make a registry, cannot be ordered, or have no
/// module of a name asked for. Nothing was created or started.
///
/// Match on ``code``; the properties hold what each code carries. Problems
/// are all listed, not just the first, so that one rebuild can fix them all.
public struct RegistryError: Error, Sendable, Hashable, CustomStringConvertible, PrefixedError {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case discovery, ordering, unknownModule
        }

        private let value: Value

        /// The `app_modules` sections are unusable: see
        /// ``RegistryError/discoveryProblems``.
        public static let discovery = Code(value: .discovery)
        /// The enabled modules cannot be put in a start order: see
        /// ``RegistryError/orderingProblems``.
        public static let ordering = Code(value: .ordering)
        /// No linked module has the name ``RegistryError/module``.
        public static let unknownModule = Code(value: .unknownModule)

        public var description: String { "\(value)" }
    }

    /// What went wrong.
    public let code: Code
    /// With ``Code/discovery``: what is wrong, in section order.
    public let discoveryProblems: [DiscoveryProblem]
    /// With ``Code/ordering``: why the modules cannot be ordered.
    public let orderingProblems: [OrderingProblem]
    /// With ``Code/unknownModule``: the name asked for.
    public let module: String?
    /// With ``Code/unknownModule``: the names the registry does hold, in
    /// declared order.
    public let knownModules: [String]

    private init(
        _ code: Code, discovery: [DiscoveryProblem] = [], ordering: [OrderingProblem] = [],
        module: String? = nil, known: [String] = []
    ) {
        self.code = code
        self.discoveryProblems = discovery
        self.orderingProblems = ordering
        self.module = module
        self.knownModules = known
    }

    /// The sections are unusable for these reasons.
    public static func discovery(_ problems: [DiscoveryProblem]) -> RegistryError {
        RegistryError(.discovery, discovery: problems)
    }

    /// The modules cannot be ordered for these reasons.
    public static func ordering(_ problems: [OrderingProblem]) -> RegistryError {
        RegistryError(.ordering, ordering: problems)
    }

    /// No module named `name` is among `known`.
    public static func unknownModule(_ name: String, known: [String]) -> RegistryError {
        RegistryError(.unknownModule, module: name, known: known)
    }

    package var message: String {
        switch code {
        case .discovery:
            let count = discoveryProblems.count == 1 ? "1 problem" : "\(discoveryProblems.count) problems"
            let lines = discoveryProblems.flatMap { $0.description.split(separator: "\n") }
            return "\(count) in the app_modules section:\n" + lines.map { "  - \($0)" }.joined(separator: "\n")
        case .ordering:
            return "the modules cannot be ordered; nothing was started:\n"
                + orderingProblems.map { "  - \($0)" }.joined(separator: "\n")
        default:
            // .unknownModule; Code's values are private, so the switch needs a default.
            let name = module ?? ""
            return "no module named '\(name)' is linked (linked: \(knownModules.joined(separator: ", "))).\(didYouMean(name, among: knownModules)) "
                + "Check the spelling, and that the app depends on the target with APP_MODULE(\(name))"
        }
    }

    public var description: String { prefixedMessage }
}
