/// Some of the roster's modules, indexed by roster position: which `run`s
/// are theirs, and where each stands among them, in one look-up a `run`.
/// Searching the list for each `run` made a launch and a drain grow with N
/// squared (3 M instructions to join the runs at N = 1,000).
struct RosterIndex: Sendable {
    private let modules: [HostedModule]
    /// For each roster position, the index in `modules` of the module at
    /// it, or -1.
    private var slots: [Int]

    init(_ modules: [HostedModule]) {
        self.modules = modules
        slots = [Int](repeating: -1, count: modules.reduce(-1) { Swift.max($0, $1.position) } + 1)
        for (index, module) in modules.enumerated() { slots[module.position] = index }
    }

    /// Where `run`'s module stands in the list; `nil` if it is not in it.
    func index(of run: ModuleRun) -> Int? {
        let position = run.module.position
        guard position < slots.count, slots[position] >= 0, modules[slots[position]] === run.module else { return nil }
        return slots[position]
    }

    func contains(_ run: ModuleRun) -> Bool {
        index(of: run) != nil
    }
}
