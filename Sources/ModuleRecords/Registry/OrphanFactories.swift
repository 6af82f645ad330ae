extension RegistryRules {
    /// The names `NAME` of the functions `app_module_NAME` among
    /// `functionSymbols` that no registered module names, sorted: a module's
    /// Swift target linked without its C registration target, whose module
    /// would otherwise be silently absent.
    ///
    /// The runtime cannot apply this rule: SwiftPM does not export the
    /// factories in the dynamic symbol table, so only a file's full symbol
    /// table (the inspector's) lists them.
    package static func orphanFactories(among functionSymbols: [String], registered: [String]) -> [String] {
        let registered = Set(registered)
        let prefix = "app_module_"
        let names = functionSymbols.lazy
            .filter { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
            .filter { !$0.isEmpty && !registered.contains($0) }
        return Set(names).sorted()
    }

    /// What to do about the orphan factory of module `name`.
    package static func orphanFactoryProblem(_ name: String) -> String {
        "the factory of \(name) (`app_module_\(name)`) is linked but its registration is not: "
            + "add `\(name)Registration` (the C target with `APP_MODULE(\(name))`) to the dependencies of `\(name)`"
    }
}
