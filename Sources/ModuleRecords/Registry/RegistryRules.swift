/// The rules a set of modules must follow to make a registry, checked the
/// same way at run time and by the `section-registry` inspector.
package enum RegistryRules {
    /// The positions of `modules` in declared order, whether that is the
    /// order they are given in (the sort's own first pass tells), the name
    /// map (keyed by names, holding positions in declared order), and the
    /// problems added to `problems`: duplicate names (each pair named in
    /// section order) and, for an empty set, ``DiscoveryProblem/noModules``.
    package static func check<Entry: RegistryEntry>(
        _ modules: [Entry], problems: [DiscoveryProblem]
    ) -> (declaredOrder: [Int], isInDeclaredOrder: Bool, names: NameTable, problems: [DiscoveryProblem]) {
        var problems = problems
        var names = NameTable(expecting: modules.count)
        let (order, isInOrder) = modules.withUnsafeBufferPointer { modules in
            let (order, isInOrder) = declaredOrder(of: modules)
            for (position, index) in order.enumerated() {
                let other = modules[index].withNameBytes { name in
                    names.update(position, name: name) { modules[order[$0]].hasName($1) }
                }
                if let other {
                    let pair = [modules[order[other]], modules[index]].sorted { ($0.location?.index ?? 0) < ($1.location?.index ?? 0) }
                    problems.append(.duplicateName(modules[index].name, pair[0].location, pair[1].location))
                }
            }
            return (order, isInOrder)
        }
        if modules.isEmpty && problems.isEmpty {
            problems.append(.noModules)
        }
        return (order, isInOrder, names, problems)
    }

    /// The positions of `modules` sorted into declared order (see
    /// ``RegistryEntry/precedesInDeclaredOrder(_:)``), stable, so that equal
    /// names keep their section order.
    ///
    /// Each module's level, priority and first eight name bytes are read
    /// once into one integer pair; whole names are compared only when those
    /// are equal.
    private static func declaredOrder<Entry: RegistryEntry>(of modules: UnsafeBufferPointer<Entry>) -> (order: [Int], isInOrder: Bool) {
        let keys = modules.map { SortKey($0) }
        return keys.withUnsafeBufferPointer { keys in
            mergeSorted(Array(modules.indices)) { lhs, rhs in
                let left = keys[lhs], right = keys[rhs]
                if left != right { return left < right }
                return modules[lhs].precedesInDeclaredOrder(modules[rhs])
            }
        }
    }

    /// `positions` sorted by `precedes`, stable, and whether they were in
    /// order already: a bottom-up merge sort that takes one comparison per
    /// run boundary when a run is in order, and one pass when the whole
    /// input is.
    ///
    /// Not the standard library's sort: that keeps its runs in an array of
    /// `Range<Int>`, and the first use of that type looks up `Int`'s
    /// `Comparable` conformance, which scans every image's conformance
    /// records: most of the time of a process's first discovery.
    private static func mergeSorted(_ positions: [Int], by precedes: (Int, Int) -> Bool) -> (order: [Int], isInOrder: Bool) {
        // Records usually lie in declared order already (the linker keeps
        // the objects' order, and a target's files are sorted): one pass
        // finds that, where the merge passes would copy every position
        // once a level.
        var inOrder = true
        for index in positions.indices.dropFirst() where precedes(positions[index], positions[index - 1]) {
            inOrder = false
            break
        }
        if inOrder { return (positions, true) }
        let count = positions.count
        var source = positions
        var target = [Int](repeating: 0, count: count)
        var width = 1
        while width < count {
            source.withUnsafeBufferPointer { source in
                target.withUnsafeMutableBufferPointer { target in
                    for start in stride(from: 0, to: count, by: 2 * width) {
                        let middle = min(start + width, count), end = min(start + 2 * width, count)
                        var left = start, right = middle, out = start
                        if middle < end && !precedes(source[middle], source[middle - 1]) {
                            // Already in order: the right run starts after the left one.
                            for index in start..<end { target[index] = source[index] }
                            continue
                        }
                        while left < middle && right < end {
                            if precedes(source[right], source[left]) {
                                target[out] = source[right]
                                right += 1
                            } else {
                                target[out] = source[left]
                                left += 1
                            }
                            out += 1
                        }
                        for index in left..<middle { target[out] = source[index]; out += 1 }
                        for index in right..<end { target[out] = source[index]; out += 1 }
                    }
                }
            }
            swap(&source, &target)
            width *= 2
        }
        return (source, false)
    }

    /// Level, then priority (higher first), then the name's first eight
    /// bytes: the declared order, decided without a call per comparison
    /// unless two names share their first eight bytes.
    private struct SortKey: Equatable, Comparable {
        let level: UInt8
        let priority: Int
        let namePrefix: UInt64

        init(_ module: some RegistryEntry) {
            level = module.level.rawValue
            priority = module.priority
            namePrefix = module.withNameBytes { name in
                var prefix: UInt64 = 0
                for byte in name.prefix(8) { prefix = prefix << 8 | UInt64(byte) }
                // Bytes past a short name's end count as zeros: a smart
                // shift, 0 for an empty name.
                return prefix << (8 * (8 - min(name.count, 8)))
            }
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.level, rhs.priority, lhs.namePrefix) < (rhs.level, lhs.priority, rhs.namePrefix)
        }
    }
}
