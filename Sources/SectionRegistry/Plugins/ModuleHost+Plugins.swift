extension PluginLibrary {
    /// A plugin a host has loaded: its library, and its modules.
    struct Loaded: Sendable {
        let library: PluginLibrary
        let registry: ModuleRegistry
    }
}

extension ModuleHost {
    /// Loads the shared object at `path` with `dlopen` and launches the
    /// modules its records declare, alongside the running ones.
    ///
    /// The images the library brings in (itself, and those of its
    /// dependencies that were not loaded yet) are found through their notes,
    /// as ``ModuleRegistry/linked()`` finds the program's, and their records
    /// are checked like the program's: malformed records, and names
    /// registered already (by the program, a library loaded with it, or
    /// another plugin), refuse the load. Its modules are ordered together
    /// with every registered module, so they may come after modules of the
    /// program or of plugins loaded before; they are created and taken
    /// through setUp, start and ready in that order, and ``terminate()``
    /// stops them, in reverse start order, with the rest. If one fails, those
    /// of its modules that started are stopped again and the library is
    /// closed: nothing of it keeps running.
    ///
    /// A library loaded with the program is registered by
    /// ``ModuleRegistry/linked()`` already; loading it again is refused
    /// (``PluginError/alreadyLoaded(path:)``).
    ///
    /// The library must reach the same SectionRegistry as the program: both
    /// link the `SectionRegistryDynamic` product. A library with its own copy
    /// is refused (``PluginError/ownRegistryCopy(path:copyIn:)``).
    ///
    /// - Returns: the names of the modules started, in start order.
    @discardableResult
    public func load(plugin path: String) async throws(PluginError) -> [String] {
        guard status.isRunning else { throw .hostNotRunning }
        let library = try PluginLibrary.open(path)
        do throws(PluginError) {
            let plugin = PluginLibrary.Loaded(library: library, registry: try library.registry())
            let order = try startOrder(of: plugin)
            do {
                try await bringUp(order)
            } catch {
                throw .launchFailed(path: path, error)
            }
            plugins.append(plugin)
            return order.map(\.name)
        } catch {
            library.close()
            throw error
        }
    }

    /// The enabled modules of `plugin` in start order, ordered together with
    /// every module registered already.
    private func startOrder(of plugin: PluginLibrary.Loaded) throws(PluginError) -> [ModuleDescriptor] {
        let path = plugin.library.path
        var registered = registry.modules.map { ($0, LoadedImage.owner(of: $0)) }
        for loaded in plugins {
            registered += loaded.registry.modules.map { ($0, "plugin \(loaded.library.path)") }
        }
        let owners = Dictionary(registered.map { ($0.0.name, $0.1) }, uniquingKeysWith: { first, _ in first })
        for module in plugin.registry.modules {
            if let owner = owners[module.name] {
                throw .duplicateName(module.name, path: path, registeredBy: owner)
            }
        }
        let all = registered.map(\.0) + plugin.registry.modules
        let disabled = configuration.allDisabledModules.intersection(all.map(\.name))
        do {
            return try StartOrder.resolve(all.map(\.declaration), disabled: disabled)
                .filter { $0 >= registered.count }
                .map { all[$0] }
        } catch {
            throw .invalidOrder(path: path, error)
        }
    }

    /// Stops the modules of the plugin loaded from `path`, in reverse start
    /// order and each within ``HostConfiguration/stopTimeLimit``, forgets
    /// them and closes the library.
    ///
    /// The library stays mapped: the Swift runtime cannot forget the
    /// metadata of an image, so SectionRegistry opens plugins with
    /// `RTLD_NODELETE`. Loading the same path again creates and launches
    /// new instances of its modules.
    ///
    /// - Throws: ``PluginError/notLoaded(path:)``, or
    ///   ``PluginError/hasDependents(path:dependents:)`` when running modules
    ///   of other plugins come after its modules (nothing is stopped).
    @discardableResult
    public func unload(plugin path: String) async throws(PluginError) -> [HookOutcome] {
        guard let index = plugins.firstIndex(where: { $0.library.path == path }) else { throw .notLoaded(path: path) }
        let plugin = plugins[index]
        let names = Set(plugin.registry.modules.map(\.name))
        let dependents = started.filter { !names.contains($0.name) && $0.descriptor.dependencies.contains(where: names.contains) }
        guard dependents.isEmpty else { throw .hasDependents(path: path, dependents: dependents.map(\.name)) }
        let stopping = started.filter { names.contains($0.name) }
        started.removeAll { names.contains($0.name) }
        plugins.remove(at: index)
        let outcomes = await stop(stopping.reversed())
        plugin.library.close()
        return outcomes
    }

    /// The paths of the plugins loaded, in load order.
    public var loadedPlugins: [String] {
        plugins.map(\.library.path)
    }
}
