/// A plugin could not be loaded or unloaded. A failed load leaves nothing of
/// the plugin running.
public enum PluginError: Error, CustomStringConvertible {
    /// `dlopen` failed.
    case cannotOpen(path: String, reason: String)
    /// Neither the library nor a library it brought in carries the
    /// SectionRegistry note: it links no registration target.
    case noSection(path: String)
    /// The library's section cannot make a registry (malformed records,
    /// duplicates inside it, no modules).
    case discovery(path: String, DiscoveryError)
    /// The library carries its own copy of SectionRegistry.
    case ownRegistryCopy(path: String, copyIn: String)
    /// The library's modules are already registered: it was loaded with the
    /// program (``ModuleRegistry/linked()`` holds them) or as a plugin.
    case alreadyLoaded(path: String)
    /// A module of the library has the name of a module already registered.
    case duplicateName(String, path: String, registeredBy: String)
    /// The library's modules cannot be ordered with the running ones.
    case invalidOrder(path: String, OrderingError)
    /// A module of the library failed to launch; the library's modules that
    /// had started were stopped again.
    case launchFailed(path: String, LaunchError)
    /// The host is not running: plugins join a launched host.
    case hostNotRunning
    /// No loaded plugin has that path.
    case notLoaded(path: String)
    /// Running modules of other plugins come after modules of this one.
    case hasDependents(path: String, dependents: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot load plugin \(path): \(reason)"
        case .noSection(let path):
            return "plugin \(path) registers no modules: it has no app_modules section; "
                + "link a target with an APP_MODULE line (depending on CSectionRegistry) into the library"
        case .discovery(let path, let error):
            return "plugin \(path): \(error)"
        case .ownRegistryCopy(let path, let copyIn):
            return "plugin \(path) carries its own copy of SectionRegistry (in \(copyIn)): its modules would not be this host's AppModule type. "
                + "Link SectionRegistry dynamically in both the program and the plugin: depend on the SectionRegistryDynamic product"
        case .alreadyLoaded(let path):
            return "plugin \(path) is loaded already and its modules are registered: "
                + "a library linked with the program, preloaded or mapped before ModuleRegistry.linked() is in linked() already"
        case .duplicateName(let name, let path, let registeredBy):
            return "plugin \(path) registers module '\(name)', which \(registeredBy) registers already: rename one of them"
        case .invalidOrder(let path, let error):
            return "plugin \(path): \(error)"
        case .launchFailed(let path, let error):
            return "plugin \(path) failed to launch: \(error)"
        case .hostNotRunning:
            return "plugins are loaded into a running host: launch it first"
        case .notLoaded(let path):
            return "cannot unload \(path): no plugin of that path is loaded"
        case .hasDependents(let path, let dependents):
            return "cannot unload \(path): \(dependents.joined(separator: ", ")) come after its modules; unload them first"
        }
    }
}
