import CSectionRegistry

/// The host could not launch, make, run or remove a module, or load or
/// unload a plugin. A failed launch or load stopped every module of it that
/// had started again, in reverse order, before this was thrown, and a failed
/// load closed the library; a failed removal or unload left the modules
/// running.
///
/// Switch on ``code``; the properties hold what each code carries, `nil` or
/// empty otherwise. ``plugin`` is set for every error of a plugin's load or
/// unload, whatever its code.
public struct HostError: Error, Sendable, CustomStringConvertible, PrefixedError {
    /// What went wrong.
    /// A struct over a private enum, as swift-service-lifecycle's
    /// `ServiceGroupError.Code`: a new code is no breaking change, so a
    /// `switch` over codes needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case alreadyLaunched, invalidOrder, moduleFailed, cancelled, timeLimitExceeded, factoryNotAHandle, factoryOtherVersion, factoryOtherCopy, notRunning, hasDependents, signalsInUse, notLaunched, cannotOpen, untrustedFile, noSection, alreadyLoaded, invalidRegistry, duplicateName, dependencyNotRunning, notLoaded, calledFromHook, stopping, invalidSetting
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        public var description: String { "\(value)" }

        /// The host was launched before.
        public static let alreadyLaunched = Code(.alreadyLaunched)
        /// The modules (of a plugin, with the running ones) cannot be
        /// ordered; none was created. ``HostError/underlying`` is the
        /// ``RegistryError`` that lists why.
        public static let invalidOrder = Code(.invalidOrder)
        /// ``HostError/module`` failed in ``HostError/phase`` with
        /// ``HostError/underlying``; ``HostError/rollback`` is how the modules
        /// already started were stopped, in that order.
        public static let moduleFailed = Code(.moduleFailed)
        /// The launch or load was cancelled (its task, or a stop of the
        /// host); ``HostError/rollback`` is how the modules already started
        /// were stopped, in that order.
        public static let cancelled = Code(.cancelled)
        /// ``HostError/module`` did not finish ``HostError/phase`` within
        /// ``HostError/limit``; the host went on without it. The
        /// ``HostError/underlying`` cause of a ``moduleFailed``.
        public static let timeLimitExceeded = Code(.timeLimitExceeded)
        /// The factory of ``HostError/module`` (in ``HostError/image``) does
        /// not return an ``AppModuleHandle``: it left the zeroed memory it
        /// should have returned into without a handle. No module was made.
        public static let factoryNotAHandle = Code(.factoryNotAHandle)
        /// The factory of ``HostError/module`` returned a handle of record
        /// ABI version ``HostError/recordVersion``. No module was made.
        public static let factoryOtherVersion = Code(.factoryOtherVersion)
        /// The factory of ``HostError/module`` returned a handle made by
        /// another copy of SectionRegistry, whose module types are not this
        /// copy's. No module was made.
        public static let factoryOtherCopy = Code(.factoryOtherCopy)
        /// No running module is named ``HostError/module``: it was not removed.
        public static let notRunning = Code(.notRunning)
        /// ``HostError/dependents``, running, come after ``HostError/module``
        /// (or the modules of ``HostError/plugin``): nothing was removed or
        /// unloaded.
        public static let hasDependents = Code(.hasDependents)
        /// Another ``ModuleHost/run()`` in this process serves the signals:
        /// signal dispositions belong to the process, so one `run()` at a
        /// time may serve them. Nothing was launched.
        public static let signalsInUse = Code(.signalsInUse)
        /// The host is not running: plugins join a launched host.
        public static let notLaunched = Code(.notLaunched)
        /// The plugin file could not be found (a relative path is made
        /// absolute against the working folder, never searched), or `dlopen`
        /// failed, for ``HostError/reason``.
        public static let cannotOpen = Code(.cannotOpen)
        /// Users other than this process's and root could have changed the
        /// plugin file, or it is not a regular file: ``HostError/reason``
        /// says what, of the file or a folder above it. Nothing was loaded.
        /// See ``HostConfiguration/trustsPluginFiles``.
        public static let untrustedFile = Code(.untrustedFile)
        /// Neither the plugin nor a library it brought in carries the
        /// SectionRegistry note: it links no registration target.
        public static let noSection = Code(.noSection)
        /// The plugin's modules are registered already: it was loaded with
        /// the program (``ModuleRegistry/linked()`` holds them) or as a plugin.
        public static let alreadyLoaded = Code(.alreadyLoaded)
        /// The plugin's sections cannot make a registry (malformed records,
        /// duplicates inside it, its own copy of SectionRegistry, no
        /// modules): ``HostError/underlying`` is the ``RegistryError`` that
        /// lists why.
        public static let invalidRegistry = Code(.invalidRegistry)
        /// ``HostError/module`` of the plugin has the name of a module that
        /// ``HostError/image`` (the program or a plugin) registered already.
        public static let duplicateName = Code(.duplicateName)
        /// ``HostError/module`` of the plugin comes after
        /// ``HostError/dependency``, which is registered but not running: it
        /// was removed, or its plugin unloaded. Nothing was started.
        public static let dependencyNotRunning = Code(.dependencyNotRunning)
        /// No loaded plugin has the path ``HostError/plugin``.
        public static let notLoaded = Code(.notLoaded)
        /// A hook of the launch, load, reload or stop under way asked the
        /// host for a request that would wait for that very request (it
        /// waits for the hook): refused at once. ``HostError/reason`` names
        /// the request.
        public static let calledFromHook = Code(.calledFromHook)
        /// A module's `run` asked for a request while the host stops that
        /// very `run` (a shutdown, or its module's removal): the request
        /// would wait for the stop, which waits for the `run`; refused at
        /// once. The shutdown stops every module in its turn.
        /// ``HostError/reason`` names the request.
        public static let stopping = Code(.stopping)
        /// A setting of the host's in its configuration (under the
        /// `Configuration` trait, a `sectionRegistry` key) is not of its
        /// type; ``HostError/reason`` names the key, the provider and the
        /// value. Nothing was launched.
        public static let invalidSetting = Code(.invalidSetting)
    }

    /// What went wrong.
    public let code: Code
    /// The path of the plugin whose load or unload failed, as passed to
    /// ``ModuleHost/load(plugin:)`` or ``ModuleHost/unload(plugin:)``.
    public internal(set) var plugin: String?
    /// The module concerned, if one is.
    public let module: String?
    /// The phase that failed or ran out of time.
    public let phase: LifecyclePhase?
    /// Why: the hook's error, a ``Code/timeLimitExceeded`` `HostError`, or the
    /// ``RegistryError`` of an ``Code/invalidOrder``.
    public let underlying: (any Error)?
    /// How the modules already started were stopped, in that order: the
    /// outcomes of the hooks and `run`s they write.
    public let rollback: [HookOutcome]
    /// The modules already started that were stopped again, in the order
    /// stopped, whatever hooks they write.
    let stopped: [String]
    /// Whether the host was running when ``module`` failed (its `run`
    /// failed after the launch): the modules were stopped, not stopped
    /// again.
    private var wasRunning = false
    /// The running modules that come after ``module``.
    public let dependents: [String]
    /// The file of the image that holds a failed factory, as the dynamic
    /// linker names it, or what registered a name a plugin takes again (the
    /// program's or a plugin's path).
    public let image: String?
    /// Why a plugin file could not be opened or is not trusted.
    public let reason: String?
    /// The module a module of a plugin comes after, registered but not
    /// running.
    public let dependency: String?
    /// What makes a plugin file untrusted, one by one.
    package let fileProblems: [PluginFileProblem]
    /// The record ABI version of the handle a factory returned.
    public let recordVersion: Int?
    /// The time limit that was up.
    public let limit: Duration?

    private init(
        _ code: Code, plugin: String? = nil, module: String? = nil, phase: LifecyclePhase? = nil,
        underlying: (any Error)? = nil, rollback: [HookOutcome] = [], stopped: [String] = [], dependents: [String] = [], image: String? = nil,
        reason: String? = nil, dependency: String? = nil, fileProblems: [PluginFileProblem] = [],
        recordVersion: Int? = nil, limit: Duration? = nil
    ) {
        self.code = code
        self.plugin = plugin
        self.module = module
        self.phase = phase
        self.underlying = underlying
        self.rollback = rollback
        self.stopped = stopped
        self.dependents = dependents
        self.image = image
        self.reason = reason
        self.dependency = dependency
        self.fileProblems = fileProblems
        self.recordVersion = recordVersion
        self.limit = limit
    }

    // The host's own errors.

    package static let alreadyLaunched = HostError(.alreadyLaunched)

    package static func invalidOrder(_ error: RegistryError) -> HostError {
        HostError(.invalidOrder, underlying: error)
    }

    package static func moduleFailed(
        _ module: String, in phase: LifecyclePhase, error: any Error, rollback: [HookOutcome], stopped: [String] = []
    ) -> HostError {
        HostError(.moduleFailed, module: module, phase: phase, underlying: error, rollback: rollback, stopped: stopped)
    }

    /// A `run` failed once the host was running: it stopped every module,
    /// `stopped` in the order stopped, the failed one among them.
    static func runFailed(_ module: String, error: any Error, outcomes: [HookOutcome], stopped: [String]) -> HostError {
        var error = HostError(.moduleFailed, module: module, phase: .run, underlying: error, rollback: outcomes, stopped: stopped)
        error.wasRunning = true
        return error
    }

    package static func cancelled(rollback: [HookOutcome], stopped: [String] = []) -> HostError {
        HostError(.cancelled, rollback: rollback, stopped: stopped)
    }

    package static func calledFromHook(_ request: String) -> HostError {
        HostError(.calledFromHook, reason: request)
    }

    static func stopping(_ request: String, module: String) -> HostError {
        HostError(.stopping, module: module, reason: request)
    }

    package static func timeLimitExceeded(_ module: String, in phase: LifecyclePhase, limit: Duration) -> HostError {
        HostError(.timeLimitExceeded, module: module, phase: phase, limit: limit)
    }

    static let signalsInUse = HostError(.signalsInUse)

    static func invalidSetting(_ problems: [String]) -> HostError {
        HostError(.invalidSetting, reason: problems.joined(separator: "; "))
    }

    package static func notRunning(_ module: String) -> HostError {
        HostError(.notRunning, module: module)
    }

    package static func hasDependents(_ module: String, dependents: [String]) -> HostError {
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

    // A plugin's errors: each names the plugin.

    static func notLaunched(plugin path: String) -> HostError { HostError(.notLaunched, plugin: path) }

    static func cannotOpen(plugin path: String, reason: String) -> HostError {
        HostError(.cannotOpen, plugin: path, reason: reason)
    }

    static func untrustedFile(plugin path: String, _ problems: [PluginFileProblem]) -> HostError {
        HostError(.untrustedFile, plugin: path, reason: problems.map(\.description).joined(separator: "; "), fileProblems: problems)
    }

    static func noSection(plugin path: String) -> HostError { HostError(.noSection, plugin: path) }

    static func alreadyLoaded(plugin path: String) -> HostError { HostError(.alreadyLoaded, plugin: path) }

    static func invalidRegistry(plugin path: String, _ error: RegistryError) -> HostError {
        HostError(.invalidRegistry, plugin: path, underlying: error)
    }

    static func duplicateName(_ module: String, plugin path: String, registeredBy: String) -> HostError {
        HostError(.duplicateName, plugin: path, module: module, image: registeredBy)
    }

    static func dependencyNotRunning(_ module: String, plugin path: String, dependency: String) -> HostError {
        HostError(.dependencyNotRunning, plugin: path, module: module, dependency: dependency)
    }

    static func hasDependents(plugin path: String, dependents: [String]) -> HostError {
        HostError(.hasDependents, plugin: path, dependents: dependents)
    }

    static func notLoaded(plugin path: String) -> HostError { HostError(.notLoaded, plugin: path) }

    /// This error as one of the load or unload of the plugin at `path`.
    func of(plugin path: String) -> HostError {
        var error = self
        error.plugin = path
        return error
    }

    package var message: String {
        guard let plugin else { return hostMessage }
        switch code {
        case .cannotOpen:
            return "cannot load plugin \(plugin): \(reason ?? "unknown error")"
        case .untrustedFile:
            return "refusing to load plugin \(plugin): \(reason ?? "")"
        case .noSection:
            return "plugin \(plugin) registers no modules: it has no app_modules section; "
                + "link a target with an APP_MODULE line (depending on CSectionRegistry) into the library"
        case .alreadyLoaded:
            return "plugin \(plugin) is loaded already and its modules are registered: "
                + "a library linked with the program, preloaded or mapped before ModuleRegistry.linked() is in linked() already"
        case .duplicateName:
            return "plugin \(plugin) registers module '\(module ?? "")', which \(image ?? "another image") registers already: rename one of them"
        case .notLaunched:
            return "cannot load plugin \(plugin): plugins are loaded into a running host: launch it first"
        case .notLoaded:
            return "cannot unload \(plugin): no plugin of that path is loaded"
        case .hasDependents:
            return "cannot unload \(plugin): \(dependents.joined(separator: ", ")) come after its modules; unload them first"
        case .dependencyNotRunning:
            return "plugin \(plugin): module '\(module ?? "")' comes after '\(dependency ?? "")', which is not running "
                + "(it was removed, or its plugin unloaded); nothing was started: load '\(dependency ?? "")' again first"
        case .moduleFailed, .cancelled:
            return "plugin \(plugin) failed to launch: \(hostMessage)"
        case .calledFromHook, .stopping:
            return "plugin \(plugin): \(hostMessage)"
        default:
            // invalidRegistry, invalidOrder: the registry error says what and how.
            return "plugin \(plugin): \(underlying.map(embedded) ?? "\(code)")"
        }
    }

    private var hostMessage: String {
        let name = module ?? ""
        switch code {
        case .alreadyLaunched:
            return "this host was launched before; make a new ModuleHost"
        case .moduleFailed:
            let cause = underlying.map(embedded) ?? "unknown error"
            let stopped = wasRunning ? stopReport(clean: "stopped") : stoppedAgain
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
        case .calledFromHook:
            return "\(reason ?? "a request") was called from a hook of the launch, load, reload or stop under way: "
                + "it would wait for that request, which waits for the hook; ask from the module's run or an event handler, "
                + "or once the request under way has returned"
        case .stopping:
            return "\(reason ?? "a request") was asked by the run of module '\(name)' while the host stops that run "
                + "(a shutdown, or its removal): refused at once, since it would wait for the run; "
                + "every module is stopped in its turn, so the run may just finish and return"
        case .invalidSetting:
            return "the host's configuration: \(reason ?? ""); nothing was launched"
        case .signalsInUse:
            return "another ModuleHost.run() in this process serves SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGUSR2: "
                + "set HostConfiguration.servesSignals to false for every host but one, and stop the others by cancelling the tasks that run them"
        case .factoryNotAHandle, .factoryOtherVersion, .factoryOtherCopy:
            return factoryMessage
        default:
            // invalidOrder, and the plugin codes, which always carry a plugin.
            return underlying.map(embedded) ?? "\(code)"
        }
    }

    private var factoryMessage: String {
        let factory = "app_module_\(module ?? "")"
        let place = image.map { " (in \($0))" } ?? ""
        switch code {
        case .factoryOtherVersion:
            return "`\(factory)`\(place) returned a handle of record ABI version \(recordVersion ?? 0), "
                + "this SectionRegistry implements version \(APP_MODULE_ABI_VERSION): rebuild it against this SectionRegistry"
        case .factoryOtherCopy:
            return "`\(factory)`\(place) was built against another copy of SectionRegistry: "
                + DiscoveryProblem.oneCopyAdvice
        default:
            // .factoryNotAHandle
            let name = module ?? ""
            return "`\(factory)`\(place) does not return an `AppModuleHandle`: "
                + "define it as `@c(\(factory)) func make\(name)() -> AppModuleHandle { AppModuleHandle(\(name)()) }`"
        }
    }

    /// What a failed launch stopped again.
    var stoppedAgain: String {
        stopped.isEmpty && rollback.isEmpty ? "no module had started" : stopReport(clean: "stopped again")
    }

    /// The modules stopped whose stop hook, if they write one, ended
    /// cleanly, then what did not end cleanly, from the results.
    private func stopReport(clean: String) -> String {
        let unclean = Set(rollback.filter { $0.phase == .stop && $0.isFailure }.map(\.module))
        let cleanly = stopped.filter { !unclean.contains($0) }
        let failed = rollback.filter(\.isFailure).map { "\($0.module) \($0.phase) \($0.resultName)" }
        let parts = [cleanly.isEmpty ? nil : "\(clean): \(cleanly.joined(separator: ", "))",
                     failed.isEmpty ? nil : "not cleanly: \(failed.joined(separator: ", "))"]
        return parts.compactMap { $0 }.joined(separator: "; ")
    }

    public var description: String { prefixedMessage }
}
