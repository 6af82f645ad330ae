/// A service could not be registered or found.
public enum ServiceError: Error, CustomStringConvertible {
    /// Two modules registered the same service type.
    case duplicate(service: String, registeredBy: String, again: String)
    /// No module registered the service `requester` asked for.
    case missing(service: String, requester: String, registered: [String])
    /// Creating the service needed the service itself, through its own
    /// factory or the factories it calls.
    case cycle(service: String, requester: String)
    /// The factory of the service threw.
    case creationFailed(service: String, provider: String, error: any Error)

    public var description: String {
        switch self {
        case .duplicate(let service, let first, let second):
            return "service \(service) is registered twice, by module '\(first)' and by module '\(second)': register it in one module"
        case .missing(let service, let requester, let registered):
            let known = registered.isEmpty ? "none is registered" : "registered: \(registered.joined(separator: ", "))"
            return "module '\(requester)' asked for service \(service), which no module registered (\(known)): "
                + "register it in setUp of a module that '\(requester)' comes after"
        case .cycle(let service, let requester):
            return "service \(service), asked for by module '\(requester)', needs itself to be created: break the cycle between the service factories"
        case .creationFailed(let service, let provider, let error):
            return "the factory of service \(service) in module '\(provider)' failed: \(error)"
        }
    }
}
