/// A service could not be registered or found.
///
/// Switch on ``code``; the properties hold what each code carries, `nil` or
/// empty otherwise.
public struct ServiceError: Error, Sendable, CustomStringConvertible, PrefixedError {
    /// What went wrong.
    /// A struct over a private enum, as swift-service-lifecycle's
    /// `ServiceGroupError.Code`: a new code is no breaking change, so a
    /// `switch` over codes needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case duplicate, missing, cycle, creationFailed, moduleStopped
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        public var description: String { "\(value)" }

        /// ``ServiceError/module`` registered ``ServiceError/service``,
        /// which ``ServiceError/registeredBy`` had registered already.
        public static let duplicate = Code(.duplicate)
        /// ``ServiceError/module`` asked for ``ServiceError/service``, which
        /// no module registered; ``ServiceError/registered`` are those that are.
        public static let missing = Code(.missing)
        /// Creating ``ServiceError/service``, asked for by
        /// ``ServiceError/module``, needed the service itself, through its
        /// own factory or the factories it calls.
        public static let cycle = Code(.cycle)
        /// The factory of ``ServiceError/service``, registered by
        /// ``ServiceError/module``, threw ``ServiceError/underlying``.
        public static let creationFailed = Code(.creationFailed)
        /// ``ServiceError/module`` registered ``ServiceError/service`` after
        /// it stopped: a hook or handler of it that the host left behind
        /// past its time limit. Refused: nothing of a stopped module stays.
        public static let moduleStopped = Code(.moduleStopped)
    }

    /// What went wrong.
    public let code: Code
    /// The service type, fully qualified.
    public let service: String
    /// The module that registered the service a second time, asked for it
    /// (empty when code outside the modules asked: ``ModuleHost/service(_:)``),
    /// or (``Code/creationFailed``) provides it.
    public let module: String
    /// The module that registered the service first.
    public let registeredBy: String?
    /// The services that are registered, when one is missing.
    public let registered: [String]
    /// The error the service's factory threw.
    public let underlying: (any Error)?

    private init(
        _ code: Code, service: String, module: String, registeredBy: String? = nil, registered: [String] = [],
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.service = service
        self.module = module
        self.registeredBy = registeredBy
        self.registered = registered
        self.underlying = underlying
    }

    /// The requester of a lookup from outside the modules.
    package static let outsideModules = ""

    /// `module` registered `service`, which `registeredBy` had registered.
    package static func duplicate(_ service: String, registeredBy: String, again module: String) -> ServiceError {
        ServiceError(.duplicate, service: service, module: module, registeredBy: registeredBy)
    }

    /// `module` asked for `service`; only `registered` are registered.
    package static func missing(_ service: String, requester module: String, registered: [String]) -> ServiceError {
        ServiceError(.missing, service: service, module: module, registered: registered)
    }

    /// Creating `service` for `module` needed `service` itself.
    package static func cycle(_ service: String, requester module: String) -> ServiceError {
        ServiceError(.cycle, service: service, module: module)
    }

    /// The factory of `service` in `module` threw `error`.
    package static func creationFailed(_ service: String, provider module: String, error: any Error) -> ServiceError {
        ServiceError(.creationFailed, service: service, module: module, underlying: error)
    }

    /// `module` registered `service` after it stopped.
    package static func moduleStopped(_ service: String, module: String) -> ServiceError {
        ServiceError(.moduleStopped, service: service, module: module)
    }

    package var message: String {
        switch code {
        case .duplicate:
            return "service \(service) is registered twice, by module '\(registeredBy ?? "")' and by module '\(module)': register it in one module"
        case .missing:
            let known = registered.isEmpty ? "none is registered" : "registered: \(registered.joined(separator: ", "))"
            if module == Self.outsideModules {
                return "code outside the modules asked for service \(service), which no module registered (\(known)): "
                    + "register it in setUp of a module, and look it up once the host has launched"
            }
            return "module '\(module)' asked for service \(service), which no module registered (\(known)): "
                + "register it in setUp of a module that '\(module)' comes after"
        case .cycle where module == Self.outsideModules:
            return "service \(service), asked for outside the modules, needs itself to be created: break the cycle between the service factories"
        case .cycle:
            return "service \(service), asked for by module '\(module)', needs itself to be created: break the cycle between the service factories"
        case .moduleStopped:
            return "module '\(module)' registered service \(service) after it stopped (a hook or handler left behind past its time limit): refused"
        default:  // .creationFailed
            let cause = underlying.map(embedded) ?? "unknown error"
            return "the factory of service \(service) in module '\(module)' failed: \(cause)"
        }
    }

    public var description: String { prefixedMessage }
}
