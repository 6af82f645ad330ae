/// The rules a set of declarations must follow to make a registry, checked
/// the same way at run time and by the `section-registry` inspector.
package enum RegistryRules {
    /// The positions of `declarations` in declared order, the position of
    /// each name, and the problems added to `problems`: duplicate names (each
    /// pair named in section order) and, for an empty set,
    /// ``DiscoveryProblem/noModules``.
    package static func check(
        _ declarations: [ModuleDeclaration], problems: [DiscoveryProblem]
    ) -> (declaredOrder: [Int], positionByName: [String: Int], problems: [DiscoveryProblem]) {
        var problems = problems
        // Sorting positions moves integers, not declarations, which would be
        // retained and released at every step.
        let order = declarations.withUnsafeBufferPointer { buffer in
            buffer.indices.sorted { ModuleDeclaration.precedesInDeclaredOrder(buffer[$0], buffer[$1]) }
        }
        var seen: [String: Int] = [:]
        seen.reserveCapacity(declarations.count)
        for index in order {
            let declaration = declarations[index]
            if let other = seen.updateValue(index, forKey: declaration.name) {
                let pair = [declarations[other], declaration].sorted { ($0.location?.index ?? 0) < ($1.location?.index ?? 0) }
                problems.append(.duplicateName(declaration.name, pair[0].location, pair[1].location))
            }
        }
        if declarations.isEmpty && problems.isEmpty {
            problems.append(.noModules)
        }
        return (order, seen, problems)
    }
}
