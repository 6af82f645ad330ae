/// The linked modules cannot make a registry, cannot be ordered, or have no
/// module of a name asked for. Nothing was created or started.
///
/// Switch on ``code``; the properties hold what each code carries.
public struct RegistryError: Error, Sendable, Hashable, CustomStringConvertible, PrefixedError {
    /// What went wrong.
    /// A struct over a private enum, as swift-service-lifecycle's
    /// `ServiceGroupError.Code`: a new code is no breaking change, so a
    /// `switch` over codes needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case discovery, ordering, unknownModule
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        public var description: String { "\(value)" }

        /// The `app_modules` sections are unusable: see
        /// ``RegistryError/problems``.
        public static let discovery = Code(.discovery)
        /// The enabled modules cannot be put in a start order: see
        /// ``RegistryError/problems``.
        public static let ordering = Code(.ordering)
        /// No linked module has the name ``RegistryError/module``.
        public static let unknownModule = Code(.unknownModule)
    }

    /// What went wrong.
    public let code: Code
    /// With ``Code/discovery``: what is wrong, in section order.
    package let discoveryProblems: [DiscoveryProblem]
    /// With ``Code/ordering``: why the modules cannot be ordered.
    package let orderingProblems: [OrderingProblem]

    /// With ``Code/discovery`` or ``Code/ordering``: each problem, in one
    /// sentence that names the record, image or module and says how to fix
    /// it. All are listed, not just the first, so that one rebuild can fix
    /// them all.
    public var problems: [String] {
        discoveryProblems.map(\.description) + orderingProblems.map(\.description)
    }
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
    package static func discovery(_ problems: [DiscoveryProblem]) -> RegistryError {
        RegistryError(.discovery, discovery: problems)
    }

    /// The modules cannot be ordered for these reasons.
    package static func ordering(_ problems: [OrderingProblem]) -> RegistryError {
        RegistryError(.ordering, ordering: problems)
    }

    /// No module named `name` is among `known`.
    package static func unknownModule(_ name: String, known: [String]) -> RegistryError {
        RegistryError(.unknownModule, module: name, known: known)
    }

    package var message: String {
        switch code {
        case .discovery:
            let count = discoveryProblems.count == 1 ? "1 problem" : "\(discoveryProblems.count) problems"
            let lines = discoveryProblems.flatMap { $0.description.split(separator: "\n") }
            return "\(count) in the app_modules section:\n" + lines.map { "  - \($0)" }.joined(separator: "\n")
        case .ordering:
            // The heading names what failed: a misspelt name to disable is
            // no ordering problem of the records.
            let fromDisabling = orderingProblems.filter(\.comesFromDisabling).count
            let what = switch fromDisabling {
            case 0: "the modules cannot be ordered"
            case orderingProblems.count: "the modules cannot be disabled as asked"
            default: "the modules cannot be ordered or disabled as asked"
            }
            return "\(what); nothing was started:\n"
                + orderingProblems.map { "  - \($0)" }.joined(separator: "\n")
        default:  // .unknownModule
            let name = module ?? ""
            return "no module named '\(name)' is linked (linked: \(knownModules.joined(separator: ", "))).\(didYouMean(name, among: knownModules)) "
                + "Check the spelling, and that the app depends on the target with APP_MODULE(\(name))"
        }
    }

    public var description: String { prefixedMessage }
}
