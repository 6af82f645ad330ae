/// The order modules start in: dependencies first, then by level, priority
/// (higher first) and name. Link and section order play no part.
package enum StartOrder {
    /// Orders the `declarations` (given in declared order) that are not
    /// `disabled`, and returns their positions in start order. A required
    /// module (`APP_MODULE_REQUIRED`) among `disabled` is an error.
    ///
    /// Levels are tiers: a module may come after modules of its own or an
    /// earlier level only. Within that, the order is topological, and among
    /// the modules free to go next the first in declared order goes first,
    /// so the result is the same on every run and with every linker.
    package static func resolve(_ declarations: [ModuleDeclaration], disabled: Set<String>) throws(RegistryError) -> [Int] {
        // No module comes after another and none is disabled: the declared
        // order (level, priority, name) is the start order, and no table
        // keyed by name is needed to find it.
        if disabled.isEmpty && declarations.allSatisfy({ $0.dependencies.isEmpty }) {
            return Array(declarations.indices)
        }
        let declared = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems = disabled.sorted().compactMap { name -> OrderingProblem? in
            guard let declaration = declared[name] else { return .unknownDisabledModule(name, linked: declarations.map(\.name)) }
            return declaration.isRequired ? .requiredModuleDisabled(name) : nil
        }
        // A required module named to disable is refused above, and ordered
        // as enabled: the modules that come after it need no message of their own.
        let enabled = declarations.indices.filter { !disabled.contains(declarations[$0].name) || declarations[$0].isRequired }
        let modules = enabled.map { declarations[$0] }
        let position = Dictionary(modules.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })

        // dependents[i]: the positions that come after module i.
        var dependents = [[Int]](repeating: [], count: modules.count)
        var waitingFor = [Int](repeating: 0, count: modules.count)
        for (index, module) in modules.enumerated() {
            for dependency in module.dependencies {
                guard let dependencyDeclaration = declared[dependency] else {
                    problems.append(.missingDependency(
                        module: module.name, dependency: dependency,
                        closest: closestName(to: dependency, among: declarations.map(\.name))))
                    continue
                }
                guard let dependencyIndex = position[dependency] else {
                    problems.append(.disabledDependency(module: module.name, dependency: dependency))
                    continue
                }
                guard dependencyDeclaration.level <= module.level else {
                    problems.append(.dependencyOnLaterLevel(
                        module: module.name, level: module.level, dependency: dependency,
                        dependencyLevel: dependencyDeclaration.level))
                    continue
                }
                dependents[dependencyIndex].append(index)
                waitingFor[index] += 1
            }
        }

        var free = IndexHeap(waitingFor.indices.filter { waitingFor[$0] == 0 })
        var order: [Int] = []
        order.reserveCapacity(modules.count)
        while let next = free.popMin() {
            order.append(enabled[next])
            for dependent in dependents[next] {
                waitingFor[dependent] -= 1
                if waitingFor[dependent] == 0 { free.insert(dependent) }
            }
        }
        if order.count < modules.count {
            problems.append(.cycle(cycle(among: modules, waitingFor: waitingFor, position: position)))
        }
        guard problems.isEmpty else { throw .ordering(problems) }
        return order
    }

    /// One cycle among the modules still waiting, found by following, from
    /// the first of them in declared order, each module's first waiting
    /// dependency until a module repeats.
    private static func cycle(among modules: [ModuleDeclaration], waitingFor: [Int], position: [String: Int]) -> [String] {
        var path: [Int] = []
        var seenAt: [Int: Int] = [:]
        var current = waitingFor.firstIndex { $0 > 0 }!
        while seenAt[current] == nil {
            seenAt[current] = path.count
            path.append(current)
            current = modules[current].dependencies
                .compactMap { position[$0] }
                .filter { waitingFor[$0] > 0 }
                .min()!
        }
        return (path[seenAt[current]!...] + [current]).map { modules[$0].name }
    }
}
