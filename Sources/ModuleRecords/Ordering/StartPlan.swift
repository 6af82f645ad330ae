/// How a set of modules starts, worked out once from their declarations:
/// the start order, the steps of modules that start alongside each other,
/// and who comes after whom. Every module is named by its position in the
/// declarations the plan was made from, so the host never looks a module up
/// by name again.
///
/// ```swift
/// let plan = try StartPlan(declarations, disabled: ["Search"])
/// plan.steps.grouped                 // [[positions in `declarations`]]
/// ```
package struct StartPlan: Sendable {
    /// The enabled modules' positions, in start order (``StartOrder``).
    package let order: [Int]
    /// ``order`` in steps: the modules of a step start alongside each other,
    /// a step when the one before it is done.
    package let steps: StartSteps
    /// For each position, the positions of the enabled modules that come
    /// right after it (name it in their `after`), in declared order; no
    /// entry at all when no module comes after another (see
    /// ``dependents(of:)``).
    private let dependents: [[Int]]
    /// For each position, the positions of the modules it comes after, as
    /// declared; empty for a disabled or left-out module; no entry at all
    /// when no module comes after another.
    private let dependencies: [[Int]]
    /// For each position, which modules it may start alongside: those of
    /// its level that start concurrently share its level's raw value; one
    /// that does not is ``startsAlone``. One list of `Int`s rather than a
    /// list of flags and one of levels: each list's element type is a
    /// type the runtime makes on the first launch of every process.
    private let startGroups: [Int]

    /// The start group of a module that starts by itself.
    private static let startsAlone = -1

    private static func startGroup(concurrent: Bool, level: ModuleLevel) -> Int {
        concurrent ? Int(level.rawValue) : startsAlone
    }

    /// Plans the `modules` of a registry (in declared order) that are not
    /// `disabled`.
    ///
    /// When none is disabled and none comes after another, the declared
    /// order is the start order: the plan is read straight from the
    /// records, without a full ``ModuleDeclaration`` per module (its
    /// dependencies decoded, its source file looked up).
    package init(_ modules: [ModuleDescriptor], disabled: Set<String>) throws(RegistryError) {
        guard disabled.isEmpty, !modules.contains(where: \.mayHaveDependencies) else {
            try self.init(modules.map(\.declaration), disabled: disabled)
            return
        }
        // No table of who comes after whom: a list of N empty lists cost
        // a retain and a release a module, for nothing to read.
        self.init(order: Array(modules.indices), dependencies: [], dependents: [],
                  startGroups: modules.map { Self.startGroup(concurrent: $0.startsConcurrently, level: $0.level) })
    }

    private init(order: [Int], dependencies: [[Int]], dependents: [[Int]], startGroups: [Int]) {
        self.order = order
        self.dependencies = dependencies
        self.dependents = dependents
        self.startGroups = startGroups
        self.steps = Self.steps(of: order, dependencies: dependencies, startGroups: startGroups)
    }

    /// Plans the `declarations` (in declared order) that are not `disabled`
    /// and not at a position in `leftOut`. A left-out module is as if it were
    /// not declared: a module that comes after it has a missing dependency.
    ///
    /// - Throws: ``RegistryError`` (``RegistryError/Code/ordering``), as ``StartOrder/resolve(_:disabled:)``
    ///   does for the declarations not left out.
    package init(_ declarations: [ModuleDeclaration], disabled: Set<String>, leavingOut leftOut: Set<Int> = []) throws(RegistryError) {
        let kept = leftOut.isEmpty ? Array(declarations.indices) : declarations.indices.filter { !leftOut.contains($0) }
        let order = try StartOrder.resolve(kept.map { declarations[$0] }, disabled: disabled).map { kept[$0] }
        var dependencies: [[Int]] = [], dependents: [[Int]] = []
        // Only modules that come after others need the tables, and the
        // table of names.
        if order.contains(where: { !declarations[$0].dependencies.isEmpty }) {
            dependencies = [[Int]](repeating: [], count: declarations.count)
            dependents = dependencies
            var position: [String: Int] = [:]
            for index in kept { position[declarations[index].name] = position[declarations[index].name] ?? index }
            for index in order.sorted() {
                dependencies[index] = declarations[index].dependencies.compactMap { position[$0] }
                for dependency in dependencies[index] { dependents[dependency].append(index) }
            }
        }
        self.init(order: order, dependencies: dependencies, dependents: dependents,
                  startGroups: declarations.map { Self.startGroup(concurrent: $0.startsConcurrently, level: $0.level) })
    }

    /// The positions of the enabled modules that come right after the one
    /// at `position` (name it in their `after`), in declared order.
    package func dependents(of position: Int) -> [Int] {
        Self.row(position, of: dependents)
    }

    /// The row at `position` of a table of who comes after whom, which has
    /// no rows at all when no module comes after another.
    private static func row(_ position: Int, of table: [[Int]]) -> [Int] {
        table.isEmpty ? [] : table[position]
    }

    /// The steps of the modules at `first` and after, in start order: those
    /// a plugin adds to the modules declared before them.
    package func steps(from first: Int) -> StartSteps {
        first == 0 ? steps : Self.steps(of: order.filter { $0 >= first }, dependencies: dependencies, startGroups: startGroups)
    }

    /// Groups `order`, a start order, into steps. A module that does not
    /// start concurrently is a step of its own. Consecutive concurrent
    /// modules of one level share steps: each goes in the step after the
    /// last of its dependencies among them, so dependents still wait for
    /// what they depend on.
    private static func steps(of order: [Int], dependencies: [[Int]], startGroups: [Int]) -> StartSteps {
        var steps = StartSteps()
        steps.positions.reserveCapacity(order.count)
        var run: [Int] = []

        func closeRun() {
            var depth: [Int: Int] = [:]
            var layers: [[Int]] = []
            for module in run {
                let layer = row(module, of: dependencies).compactMap { depth[$0].map { $0 + 1 } }.max() ?? 0
                depth[module] = layer
                if layer == layers.count { layers.append([]) }
                layers[layer].append(module)
            }
            for layer in layers { steps.append(layer) }
            run = []
        }

        for module in order {
            let group = startGroups[module]
            // Tested here, not in closeRun: most modules start alone, and
            // each call, to close no run, cost a module tens of instructions.
            if let first = run.first, group == startsAlone || startGroups[first] != group {
                closeRun()
            }
            if group == startsAlone {
                steps.append(module)
            } else {
                run.append(module)
            }
        }
        if !run.isEmpty { closeRun() }
        return steps
    }
}

/// The modules of a start order, step by step: flat, not an array per step,
/// since most steps hold one module and each array would be an allocation.
package struct StartSteps: Sendable, Equatable {
    /// The modules' positions, the first step's first.
    package fileprivate(set) var positions: [Int] = []
    /// How many modules each step holds, in order.
    package fileprivate(set) var sizes: [Int] = []

    /// Each step's positions, for the tools and the tests.
    package var grouped: [[Int]] {
        var start = 0
        return sizes.map { size in
            defer { start += size }
            return Array(positions[start..<start + size])
        }
    }

    mutating func append(_ step: some Collection<Int>) {
        positions.append(contentsOf: step)
        sizes.append(step.count)
    }

    /// Appends a step of one module: most steps are one, and the generic
    /// append of a collection cost tens of instructions more for each.
    mutating func append(_ position: Int) {
        positions.append(position)
        sizes.append(1)
    }
}
