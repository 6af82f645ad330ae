import CSectionRegistry

/// The host could not launch, make, run or remove a module. A failed launch
/// stopped every module that had started again, in reverse order, before
/// this was thrown; a failed removal left the module running.
///
/// Match on ``code``; the properties hold what each code carries, `nil` or
/// empty otherwise.
public struct HostError: Error, Sendable, CustomStringConvertible, PrefixedError {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case alreadyLaunched, invalidOrder, moduleFailed, cancelled, timeLimitExceeded
            case factoryNotAHandle, factoryOtherVersion, factoryOtherCopy
            case notRunning, hasDependents, signalsInUse
        }

        private let value: Value

        /// The host was launched before.
        public static let alreadyLaunched = Code(value: .alreadyLaunched)
        /// The modules cannot be ordered; none was created. ``HostError/underlying``
        /// is the ``RegistryError`` that lists why.
        public static let invalidOrder = Code(value: .invalidOrder)
        /// ``HostError/module`` failed in ``HostError/phase`` with
        /// ``HostError/underlying``; ``HostError/rollback`` is how the modules
        /// already started were stopped, in that order.
        public static let moduleFailed = Code(value: .moduleFailed)
        /// The task that launched was cancelled; ``HostError/rollback`` is
        /// how the modules already started were stopped, in that order.
        public static let cancelled = Code(value: .cancelled)
        /// ``HostError/module`` did not finish ``HostError/phase`` within
        /// ``HostError/limit``; the host went on without it. The
        /// ``HostError/underlying`` cause of a ``moduleFailed``.
        public static let timeLimitExceeded = Code(value: .timeLimitExceeded)
        /// The factory of ``HostError/module`` (in ``HostError/image``) does
        /// not return an ``AppModuleHandle``: it left the zeroed memory it
        /// should have returned into without a handle. No module was made.
        public static let factoryNotAHandle = Code(value: .factoryNotAHandle)
        /// The factory of ``HostError/module`` returned a handle of record
        /// ABI version ``HostError/recordVersion``. No module was made.
        public static let factoryOtherVersion = Code(value: .factoryOtherVersion)
        /// The factory of ``HostError/module`` returned a handle made by
        /// another copy of SectionRegistry, whose module types are not this
        /// copy's. No module was made.
        public static let factoryOtherCopy = Code(value: .factoryOtherCopy)
        /// No running module is named ``HostError/module``: it was not removed.
        public static let notRunning = Code(value: .notRunning)
        /// ``HostError/dependents``, running, come after ``HostError/module``:
        /// it was not removed.
        public static let hasDependents = Code(value: .hasDependents)
        /// Another ``ModuleHost/run()`` in this process serves the signals:
        /// signal dispositions belong to the process, so one `run()` at a
        /// time may serve them. Nothing was launched.
        public static let signalsInUse = Code(value: .signalsInUse)

        public var description: String { "\(value)" }
    }

    /// What went wrong.
    public let code: Code
    /// The module concerned, if one is.
    public let module: String?
    /// The phase that failed or ran out of time.
    public let phase: LifecyclePhase?
    /// Why: the hook's error, a ``Code/timeLimitExceeded`` `HostError`, or the
    /// ``RegistryError`` of an ``Code/invalidOrder``.
    public let underlying: (any Error)?
    /// How the modules already started were stopped, in that order.
    public let rollback: [HookOutcome]
    /// The running modules that come after ``module``.
    public let dependents: [String]
    /// The file of the image that holds a failed factory, as the dynamic
    /// linker names it, or `nil` if none does.
    public let image: String?
    /// The record ABI version of the handle a factory returned.
    public let recordVersion: Int?
    /// The time limit that was up.
    public let limit: Duration?

    private init(
        _ code: Code, module: String? = nil, phase: LifecyclePhase? = nil, underlying: (any Error)? = nil,
        rollback: [HookOutcome] = [], dependents: [String] = [], image: String? = nil, recordVersion: Int? = nil,
        limit: Duration? = nil
    ) {
        self.code = code
        self.module = module
        self.phase = phase
        self.underlying = underlying
        self.rollback = rollback
        self.dependents = dependents
        self.image = image
        self.recordVersion = recordVersion
        self.limit = limit
    }

    /// The host was launched before.
    public static let alreadyLaunched = HostError(.alreadyLaunched)

    /// The modules cannot be ordered, as `error` says.
    public static func invalidOrder(_ error: RegistryError) -> HostError {
        HostError(.invalidOrder, underlying: error)
    }

    /// `module` failed in `phase` with `error`; `rollback` stopped the others.
    public static func moduleFailed(
        _ module: String, in phase: LifecyclePhase, error: any Error, rollback: [HookOutcome]
    ) -> HostError {
        HostError(.moduleFailed, module: module, phase: phase, underlying: error, rollback: rollback)
    }

    /// The launching task was cancelled; `rollback` stopped the others.
    public static func cancelled(rollback: [HookOutcome]) -> HostError {
        HostError(.cancelled, rollback: rollback)
    }

    /// `module` did not finish `phase` within `limit`.
    public static func timeLimitExceeded(_ module: String, in phase: LifecyclePhase, limit: Duration) -> HostError {
        HostError(.timeLimitExceeded, module: module, phase: phase, limit: limit)
    }

    /// Another `run()` serves the process's signals.
    static let signalsInUse = HostError(.signalsInUse)

    /// No running module is named `module`.
    public static func notRunning(_ module: String) -> HostError {
        HostError(.notRunning, module: module)
    }

    /// Running `dependents` come after `module`.
    public static func hasDependents(_ module: String, dependents: [String]) -> HostError {
        HostError(.hasDependents, module: module, dependents: dependents)
    }

    /// The factory of `module`, `factory`, did not return a usable handle
    /// (`code` is one of the factory codes); names the image that holds it.
    static func factoryFailed(
        _ code: Code, module: String, factory: app_module_factory?, recordVersion: Int? = nil
    ) -> HostError {
        var file: UnsafePointer<CChar>?
        if let factory {
            _ = app_modules_image_of(unsafeBitCast(factory, to: UnsafeRawPointer.self), &file)
        }
        return HostError(code, module: module, image: file.map { String(cString: $0) }, recordVersion: recordVersion)
    }

    package var message: String {
        let name = module ?? ""
        switch code {
        case .alreadyLaunched:
            return "this host was launched before; make a new ModuleHost"
        case .invalidOrder:
            return underlying.map(embedded) ?? "the modules cannot be ordered"
        case .moduleFailed:
            let cause = underlying.map(embedded) ?? "unknown error"
            // A run fails once every module started: the host stopped them all.
            let stopped = phase == .run ? "stopped: \(rollback.map(\.module).joined(separator: ", "))" : stoppedAgain
            return "module '\(name)' failed in \(phase.map { "\($0)" } ?? "a hook"): \(cause) (\(stopped))"
        case .cancelled:
            return "launch cancelled (\(stoppedAgain))"
        case .timeLimitExceeded:
            let hook = phase.map { "its \($0) hook" } ?? "its hook"
            return "did not finish within \(limit ?? .zero): make \(hook) return sooner, or raise the limit in HostConfiguration"
        case .notRunning:
            return "cannot remove '\(name)': no running module has that name"
        case .hasDependents:
            return "cannot remove '\(name)': \(dependents.joined(separator: ", ")) come after it; remove them first"
        case .signalsInUse:
            return "another ModuleHost.run() in this process serves SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGUSR2: "
                + "set HostConfiguration.servesSignals to false for every host but one, and stop the others by cancelling the tasks that run them"
        default:
            // The three factory codes.
            return factoryMessage
        }
    }

    /// What a module's factory did wrong, and how to define it.
    private var factoryMessage: String {
        let factory = "app_module_\(module ?? "")"
        let place = image.map { " (in \($0))" } ?? ""
        switch code {
        case .factoryOtherVersion:
            return "`\(factory)`\(place) returned a handle of record ABI version \(recordVersion ?? 0), "
                + "this SectionRegistry implements version \(APP_MODULE_ABI_VERSION): rebuild it against this SectionRegistry"
        case .factoryOtherCopy:
            return "`\(factory)`\(place) was built against another copy of SectionRegistry: "
                + "link one copy into every image (the SectionRegistryDynamic product for a program and its libraries)"
        default:
            // .factoryNotAHandle
            let name = module ?? ""
            return "`\(factory)`\(place) does not return an `AppModuleHandle`: "
                + "define it as `@c(\(factory)) func make\(name)() -> AppModuleHandle { AppModuleHandle(\(name)()) }`"
        }
    }

    /// What a failed launch stopped again.
    private var stoppedAgain: String {
        rollback.isEmpty ? "no module had started" : "stopped again: \(rollback.map(\.module).joined(separator: ", "))"
    }

    public var description: String { prefixedMessage }
}
