/// A module was asked for by a name no linked record declares.
public struct UnknownModuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name asked for.
    public let name: String
    /// The names the registry does hold, in declared order.
    public let knownNames: [String]

    package init(name: String, knownNames: [String]) {
        self.name = name
        self.knownNames = knownNames
    }

    public var description: String {
        "no module named '\(name)' is linked (linked: \(knownNames.joined(separator: ", "))).\(didYouMean(name, among: knownNames)) "
            + "Check the spelling, and that the app depends on the target with APP_MODULE(\(name))"
    }
}
