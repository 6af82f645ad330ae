/// Groups a start order into steps: every module of a step starts
/// alongside the others, and a step starts when the one before it is done.
///
/// A module without ``ModuleDescriptor/startsConcurrently`` is a step of its
/// own. Consecutive concurrent modules of one level share steps: each goes
/// in the step after the last of its dependencies among them, so
/// dependents still wait for what they depend on.
enum StartSteps {
    static func group(_ order: [ModuleDescriptor]) -> [[ModuleDescriptor]] {
        var steps: [[ModuleDescriptor]] = []
        var run: [ModuleDescriptor] = []

        func closeRun() {
            var depth: [String: Int] = [:]
            var layers: [[ModuleDescriptor]] = []
            for module in run {
                let layer = module.dependencies.compactMap { depth[$0].map { $0 + 1 } }.max() ?? 0
                depth[module.name] = layer
                if layer == layers.count { layers.append([]) }
                layers[layer].append(module)
            }
            steps += layers
            run = []
        }

        for module in order {
            if !module.startsConcurrently || run.first.map({ $0.level != module.level }) == true {
                closeRun()
            }
            if module.startsConcurrently {
                run.append(module)
            } else {
                steps.append([module])
            }
        }
        closeRun()
        return steps
    }
}
