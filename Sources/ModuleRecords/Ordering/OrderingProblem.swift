/// Why the enabled modules cannot be put in a start order. Nothing starts
/// while there is one.
package enum OrderingProblem: Sendable, Hashable, CustomStringConvertible {
    /// `module` comes after `dependency`, which no record declares;
    /// `closest` is the linked name it most likely misspells, if any.
    case missingDependency(module: String, dependency: String, closest: String? = nil)
    /// `module` comes after `dependency`, which is disabled.
    case disabledDependency(module: String, dependency: String)
    /// `module` comes after `dependency` of a later level, which levels forbid.
    case dependencyOnLaterLevel(module: String, level: ModuleLevel, dependency: String, dependencyLevel: ModuleLevel)
    /// The modules come after each other in a circle; the first name is
    /// repeated at the end.
    case cycle([String])
    /// A module to disable is not in the registry, which holds `linked`.
    case unknownDisabledModule(String, linked: [String])
    /// A module to disable is marked `APP_MODULE_REQUIRED`: it may not be
    /// disabled from outside the program.
    case requiredModuleDisabled(String)

    /// Whether the modules disabled (by name, from outside the program)
    /// cause it, rather than the records' own order.
    var comesFromDisabling: Bool {
        switch self {
        case .disabledDependency, .unknownDisabledModule, .requiredModuleDisabled: true
        case .missingDependency, .dependencyOnLaterLevel, .cycle: false
        }
    }

    public var description: String {
        switch self {
        case .missingDependency(let module, let dependency, let closest):
            let fix = "link the target with APP_MODULE(\(dependency)) or remove it from the .after list of '\(module)'"
            return "module '\(module)' comes after '\(dependency)', which is not linked: "
                + (closest.map { "did you mean '\($0)'? If not, \(fix)" } ?? fix)
        case .disabledDependency(let module, let dependency):
            return "module '\(module)' comes after '\(dependency)', which is disabled: disable '\(module)' too, or enable '\(dependency)'"
        case .dependencyOnLaterLevel(let module, let level, let dependency, let dependencyLevel):
            return "module '\(module)' (level \(level)) comes after '\(dependency)' (level \(dependencyLevel)), "
                + "but every \(level) module starts before any \(dependencyLevel) module: raise the level of '\(module)' or drop the dependency"
        case .cycle(let names):
            return "dependency cycle: \(names.joined(separator: " -> ")) (each comes after the next): remove one of these dependencies"
        case .unknownDisabledModule(let name, let linked):
            return "cannot disable '\(name)': no module of that name is linked (linked: \(linked.joined(separator: ", ")))."
                + didYouMean(name, among: linked)
        case .requiredModuleDisabled(let name):
            return "cannot disable '\(name)': it is marked APP_MODULE_REQUIRED, which forbids disabling it from outside the program: "
                + "remove '\(name)' from SECTION_REGISTRY_DISABLE and HostConfiguration.disabledModules"
        }
    }
}
