/// A plugin could not be loaded or unloaded. A failed load leaves nothing of
/// the plugin running; a failed unload leaves it running.
///
/// Match on ``code``; the properties hold what each code carries, `nil` or
/// empty otherwise.
public struct PluginError: Error, Sendable, CustomStringConvertible, PrefixedError {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case cannotOpen, untrustedFile, noSection, invalidRegistry, ownRegistryCopy, alreadyLoaded, duplicateName
            case invalidOrder, launchFailed, hostNotRunning, notLoaded, hasDependents, dependencyNotRunning
        }

        private let value: Value

        /// The file could not be found (a relative path is made absolute
        /// against the working folder, never searched), or `dlopen` failed,
        /// for ``PluginError/reason``.
        public static let cannotOpen = Code(value: .cannotOpen)
        /// Users other than this process's and root could have changed the
        /// file, or it is not a regular file: ``PluginError/fileProblems``
        /// says what, of the file or a folder above it. Nothing was loaded.
        /// See ``HostConfiguration/trustsPluginFiles``.
        public static let untrustedFile = Code(value: .untrustedFile)
        /// Neither the library nor a library it brought in carries the
        /// SectionRegistry note: it links no registration target.
        public static let noSection = Code(value: .noSection)
        /// The library's sections cannot make a registry (malformed records,
        /// duplicates inside it, no modules): ``PluginError/underlying`` is
        /// the ``RegistryError`` that lists why.
        public static let invalidRegistry = Code(value: .invalidRegistry)
        /// The library carries its own copy of SectionRegistry, in
        /// ``PluginError/copyIn``.
        public static let ownRegistryCopy = Code(value: .ownRegistryCopy)
        /// The library's modules are already registered: it was loaded with
        /// the program (``ModuleRegistry/linked()`` holds them) or as a plugin.
        public static let alreadyLoaded = Code(value: .alreadyLoaded)
        /// ``PluginError/module`` of the library has the name of a module
        /// that ``PluginError/registeredBy`` registered already.
        public static let duplicateName = Code(value: .duplicateName)
        /// The library's modules cannot be ordered with the running ones:
        /// ``PluginError/underlying`` is the ``RegistryError`` that lists why.
        public static let invalidOrder = Code(value: .invalidOrder)
        /// A module of the library failed to launch; those that had started
        /// were stopped again. ``PluginError/underlying`` is the ``HostError``.
        public static let launchFailed = Code(value: .launchFailed)
        /// The host is not running: plugins join a launched host.
        public static let hostNotRunning = Code(value: .hostNotRunning)
        /// No loaded plugin has the path.
        public static let notLoaded = Code(value: .notLoaded)
        /// ``PluginError/dependents``, running modules of other plugins,
        /// come after modules of this one.
        public static let hasDependents = Code(value: .hasDependents)
        /// ``PluginError/module`` of the library comes after
        /// ``PluginError/dependency``, which is registered but not running:
        /// it was removed, or its plugin unloaded. Nothing was started.
        public static let dependencyNotRunning = Code(value: .dependencyNotRunning)

        public var description: String { "\(value)" }
    }

    /// What went wrong.
    public let code: Code
    /// The plugin's path, as passed to load or unload; `nil` for
    /// ``Code/hostNotRunning``.
    public let path: String?
    /// Why `dlopen` failed, as the dynamic linker says, or why the file
    /// could not be found.
    public let reason: String?
    /// What makes the file untrusted, for ``Code/untrustedFile``.
    public let fileProblems: [PluginFileProblem]
    /// The file that holds the plugin's own copy of SectionRegistry.
    public let copyIn: String?
    /// The module of the plugin whose name is taken.
    public let module: String?
    /// What registered that name first: the program or a plugin's path.
    public let registeredBy: String?
    /// The running modules that come after the plugin's.
    public let dependents: [String]
    /// The module a module of the plugin comes after, not running.
    public let dependency: String?
    /// The ``RegistryError`` or ``HostError`` behind it.
    public let underlying: (any Error)?

    private init(
        _ code: Code, path: String?, reason: String? = nil, fileProblems: [PluginFileProblem] = [], copyIn: String? = nil,
        module: String? = nil, registeredBy: String? = nil, dependents: [String] = [], dependency: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.dependency = dependency
        self.code = code
        self.path = path
        self.reason = reason
        self.fileProblems = fileProblems
        self.copyIn = copyIn
        self.module = module
        self.registeredBy = registeredBy
        self.dependents = dependents
        self.underlying = underlying
    }

    /// `dlopen` of `path` failed for `reason`.
    public static func cannotOpen(_ path: String, reason: String) -> PluginError {
        PluginError(.cannotOpen, path: path, reason: reason)
    }

    /// The file at `path` is not trusted, for `problems`.
    public static func untrustedFile(_ path: String, _ problems: [PluginFileProblem]) -> PluginError {
        PluginError(.untrustedFile, path: path, fileProblems: problems)
    }

    /// The library at `path` registers no modules.
    public static func noSection(_ path: String) -> PluginError { PluginError(.noSection, path: path) }

    /// The library at `path` cannot make a registry, as `error` says.
    public static func invalidRegistry(_ path: String, _ error: RegistryError) -> PluginError {
        PluginError(.invalidRegistry, path: path, underlying: error)
    }

    /// The library at `path` uses the copy of SectionRegistry in `copyIn`.
    public static func ownRegistryCopy(_ path: String, copyIn: String) -> PluginError {
        PluginError(.ownRegistryCopy, path: path, copyIn: copyIn)
    }

    /// The library at `path` is registered already.
    public static func alreadyLoaded(_ path: String) -> PluginError { PluginError(.alreadyLoaded, path: path) }

    /// `module` of the library at `path` was registered by `registeredBy`.
    public static func duplicateName(_ module: String, path: String, registeredBy: String) -> PluginError {
        PluginError(.duplicateName, path: path, module: module, registeredBy: registeredBy)
    }

    /// The modules of the library at `path` cannot be ordered, as `error` says.
    public static func invalidOrder(_ path: String, _ error: RegistryError) -> PluginError {
        PluginError(.invalidOrder, path: path, underlying: error)
    }

    /// The modules of the library at `path` failed to launch, as `error` says.
    public static func launchFailed(_ path: String, _ error: HostError) -> PluginError {
        PluginError(.launchFailed, path: path, underlying: error)
    }

    /// The host is not running.
    public static let hostNotRunning = PluginError(.hostNotRunning, path: nil)

    /// No plugin of `path` is loaded.
    public static func notLoaded(_ path: String) -> PluginError { PluginError(.notLoaded, path: path) }

    /// `module` of the plugin at `path` comes after `dependency`, which does
    /// not run.
    static func dependencyNotRunning(_ module: String, path: String, dependency: String) -> PluginError {
        PluginError(.dependencyNotRunning, path: path, module: module, dependency: dependency)
    }

    /// Running `dependents` come after the modules of the plugin at `path`.
    public static func hasDependents(_ path: String, dependents: [String]) -> PluginError {
        PluginError(.hasDependents, path: path, dependents: dependents)
    }

    package var message: String {
        let path = path ?? ""
        let cause = underlying.map(embedded) ?? ""
        switch code {
        case .cannotOpen:
            return "cannot load plugin \(path): \(reason ?? "unknown error")"
        case .untrustedFile:
            return "refusing to load plugin \(path): " + fileProblems.map(\.description).joined(separator: "; ")
        case .noSection:
            return "plugin \(path) registers no modules: it has no app_modules section; "
                + "link a target with an APP_MODULE line (depending on CSectionRegistry) into the library"
        case .ownRegistryCopy:
            return "plugin \(path) carries its own copy of SectionRegistry (in \(copyIn ?? path)): its modules would not be this host's AppModule type. "
                + "Link SectionRegistry dynamically in both the program and the plugin: depend on the SectionRegistryDynamic product"
        case .alreadyLoaded:
            return "plugin \(path) is loaded already and its modules are registered: "
                + "a library linked with the program, preloaded or mapped before ModuleRegistry.linked() is in linked() already"
        case .duplicateName:
            return "plugin \(path) registers module '\(module ?? "")', which \(registeredBy ?? "another image") registers already: rename one of them"
        case .launchFailed:
            return "plugin \(path) failed to launch: \(cause)"
        case .hostNotRunning:
            return "plugins are loaded into a running host: launch it first"
        case .notLoaded:
            return "cannot unload \(path): no plugin of that path is loaded"
        case .hasDependents:
            return "cannot unload \(path): \(dependents.joined(separator: ", ")) come after its modules; unload them first"
        case .dependencyNotRunning:
            return "plugin \(path): module '\(module ?? "")' comes after '\(dependency ?? "")', which is not running "
                + "(it was removed, or its plugin unloaded); nothing was started: load '\(dependency ?? "")' again first"
        default:
            // invalidRegistry, invalidOrder: the registry error says what and how.
            return "plugin \(path): \(cause)"
        }
    }

    public var description: String { prefixedMessage }
}
