/// The modules of a launched host: every module it was given (the
/// program's, then each plugin's), the plan over them, which of them run,
/// and the plugins loaded.
///
/// Modules are only ever appended, so a position names one module for the
/// host's whole life: a bring-up that suspends keeps valid positions while
/// modules are removed or plugins loaded and unloaded around it. The modules
/// of an unloaded plugin, or of a load that failed, stay at their positions
/// and are left out of later plans.
struct HostRoster: Sendable {
    /// A plugin loaded into the host.
    struct Plugin: Sendable {
        let library: PluginLibrary
        /// Where its modules are in ``HostRoster/modules``.
        let positions: Range<Int>
    }

    /// Every module given to the host, in the order given.
    private(set) var modules: [ModuleDescriptor]
    /// How ``modules`` start: made at launch, and again for each plugin load.
    private(set) var plan: StartPlan
    /// The modules whose start succeeded and that have not stopped, in start
    /// order.
    private(set) var started: [HostedModule] = []
    /// The plugins loaded, in load order.
    var plugins: [Plugin] = []
    /// For each position, whether its module is in ``started``.
    private var running: [Bool]
    /// Positions of modules left out of plans: an unloaded plugin's, or a
    /// failed load's.
    private var leftOut: Set<Int> = []
    /// Where each plugin's modules are, loaded or being loaded, by path: who
    /// registered a name, for messages.
    private var sources: [(positions: Range<Int>, path: String)] = []

    /// The program's `modules` and their `plan`.
    init(modules: [ModuleDescriptor], plan: StartPlan) {
        self.modules = modules
        self.plan = plan
        self.running = Array(repeating: false, count: modules.count)
    }

    /// Whether the module at `position` runs.
    func isRunning(_ position: Int) -> Bool {
        running[position]
    }

    /// The running modules, in start order, that come right after a module
    /// at `positions` and are not at one of them.
    func runningDependents(of positions: some Collection<Int>) -> [HostedModule] {
        let after = Set(positions.flatMap { plan.dependents(of: $0) })
        return started.filter { after.contains($0.position) && !positions.contains($0.position) }
    }

    /// The first of `candidates` whose name a module not left out has
    /// already, and who registered that one: the program, a library, or a
    /// plugin.
    func firstRegistered(among candidates: [ModuleDescriptor]) -> (name: String, owner: String)? {
        var registered: [String: Int] = [:]
        for position in modules.indices where !leftOut.contains(position) {
            registered[modules[position].name] = registered[modules[position].name] ?? position
        }
        guard let (name, position) = candidates.lazy.compactMap({ module in registered[module.name].map { (module.name, $0) } }).first else {
            return nil
        }
        let owner = sources.first { $0.positions.contains(position) }.map { "plugin \($0.path)" } ?? LoadedImage.owner(of: modules[position])
        return (name, owner)
    }

    /// Adds `added`, the modules of the plugin at `path`, and plans them
    /// with every module not left out. Changes nothing if they cannot be
    /// ordered.
    ///
    /// - Returns: their positions.
    mutating func add(_ added: [ModuleDescriptor], from path: String, disabled: Set<String>) throws(RegistryError) -> Range<Int> {
        let all = modules + added
        let present = Set(all.indices.filter { !leftOut.contains($0) }.map { all[$0].name })
        plan = try StartPlan(all.map { $0.declaration }, disabled: disabled.intersection(present), leavingOut: leftOut)
        let positions = modules.count..<all.count
        modules = all
        running += repeatElement(false, count: added.count)
        sources.append((positions, path))
        return positions
    }

    /// Leaves the modules at `positions` out of later plans.
    mutating func leaveOut(_ positions: Range<Int>) {
        leftOut.formUnion(positions)
    }

    /// Records `module` as started.
    mutating func start(_ module: HostedModule) {
        started.append(module)
        running[module.position] = true
    }

    /// Takes the modules at `positions` out of ``started`` and returns them,
    /// in start order.
    mutating func takeStarted(at positions: some Collection<Int>) -> [HostedModule] {
        let taken = started.filter { positions.contains($0.position) && running[$0.position] }
        guard !taken.isEmpty else { return [] }
        started.removeAll { positions.contains($0.position) }
        for module in taken { running[module.position] = false }
        return taken
    }
}
