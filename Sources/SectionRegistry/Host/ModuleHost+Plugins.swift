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
    /// closed: nothing of it keeps running. The same if ``terminate()``
    /// is called during the load, or the calling task is cancelled: the
    /// running hook is cancelled, no further one is called, the load fails
    /// with ``HostError/Code/cancelled``, and then ``terminate()`` stops the
    /// rest: every module is stopped once, in reverse start order.
    ///
    /// A load takes its turn (see ``ModuleHost``): two loads never
    /// interleave, so a module of the second that comes after one of the
    /// first starts only once that one has started.
    ///
    /// Only a trusted file is opened: `path` is made absolute against the
    /// working directory (never searched for), and a file that is not a
    /// regular file, that a user other than this process's or root owns, or
    /// that such a user may write (the file, or a folder above it) is
    /// refused with ``HostError/Code/untrustedFile`` before `dlopen`.
    /// ``HostConfiguration/trustsPluginFiles`` relaxes the ownership and
    /// write checks for development.
    ///
    /// A library loaded with the program is registered by
    /// ``ModuleRegistry/linked()`` already; loading it again is refused
    /// (``HostError/Code/alreadyLoaded``).
    ///
    /// The library must reach the same SectionRegistry as the program: both
    /// link the `SectionRegistryDynamic` product. A library with its own copy
    /// is refused (``HostError/Code/invalidRegistry``).
    ///
    /// - Throws: ``HostError`` with ``HostError/plugin`` set to `path`: a
    ///   plugin code, or the code of the module that failed to launch.
    ///
    /// - Returns: the names of the modules started, in start order.
    @discardableResult
    public func load(plugin path: String) async throws(HostError) -> [String] {
        try await perform(.load, "load(plugin:)", refused: { .failure($0.of(plugin: path)) }) { host, id in
            await host.loadNow(plugin: path, request: id)
        }.get()
    }

    private func loadNow(plugin path: String, request id: Int) async -> Result<[String], HostError> {
        // Nothing is opened for a load that cannot happen.
        guard !requests.isInterrupted(id, .load) else { return .failure(HostError.cancelled(rollback: []).of(plugin: path)) }
        guard lifecycle.isRunning else { return .failure(.notLaunched(plugin: path)) }
        do throws(HostError) {
            let library = try PluginLibrary.open(path, checkingWriters: !configuration.trustsPluginFiles)
            do throws(HostError) {
                let (positions, started) = try await bringUp(try library.registry().modules, from: path, request: id)
                lifecycle.changeRoster { $0.plugins.append(HostRoster.Plugin(library: library, positions: positions)) }
                return .success(started)
            } catch {
                library.close()
                throw error
            }
        } catch {
            return .failure(error)
        }
    }

    /// Brings up `modules` as a load of a plugin at `path` does once the
    /// library is open, in the load's turn: for tests of loads without a
    /// plugin file.
    ///
    /// - Returns: the names of the modules started, in start order.
    func load(_ modules: [ModuleDescriptor], from path: String) async throws(HostError) -> [String] {
        try await perform(.load, "load(plugin:)", refused: { .failure($0.of(plugin: path)) }) { host, id -> Result<[String], HostError> in
            do throws(HostError) {
                return .success(try await host.bringUp(modules, from: path, request: id).started)
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// Adds `modules`, those of the plugin at `path`, to the roster, ordered
    /// together with every module registered already, and brings those
    /// enabled up alongside the running ones. If that fails, they are left
    /// out of later plans.
    ///
    /// - Returns: their positions in the roster, and the names of those
    ///   started, in start order.
    private func bringUp(
        _ modules: [ModuleDescriptor], from path: String, request id: Int
    ) async throws(HostError) -> (positions: Range<Int>, started: [String]) {
        // Stopped while it waited for its turn: cancelled, as documented.
        guard !requests.isInterrupted(id, .load) else { throw HostError.cancelled(rollback: []).of(plugin: path) }
        guard let roster = lifecycle.roster, lifecycle.isRunning else { throw .notLaunched(plugin: path) }
        if let (name, owner) = roster.firstRegistered(among: modules) {
            throw .duplicateName(name, plugin: path, registeredBy: owner)
        }
        let added: (positions: Range<Int>, plan: StartPlan)?
        do throws(RegistryError) {
            added = try lifecycle.changeRoster { roster throws(RegistryError) in
                (try roster.add(modules, from: path, disabled: configuration.allDisabledModules), roster.plan)
            }
        } catch {
            throw HostError.invalidOrder(error).of(plugin: path)
        }
        guard let (positions, plan) = added, let roster = lifecycle.roster else { throw .notLaunched(plugin: path) }
        // A module before them that no longer runs (removed, or its plugin
        // unloaded) but that one of them comes after: starting it would
        // break the start order.
        for position in 0..<positions.lowerBound where !roster.isRunning(position) {
            if let dependent = plan.dependents(of: position).first(where: positions.contains) {
                lifecycle.changeRoster { $0.leaveOut(positions) }
                throw .dependencyNotRunning(roster.modules[dependent].name, plugin: path, dependency: roster.modules[position].name)
            }
        }
        let order = plan.order.filter { $0 >= positions.lowerBound }
        do {
            try await withSpan("load", root: true, modules: order.map { modules[$0 - positions.lowerBound].name }) { () async throws(HostError) in
                try await bringUp(order, in: plan.steps(from: positions.lowerBound), request: id, kind: .load)
            }
        } catch {
            lifecycle.changeRoster { $0.leaveOut(positions) }
            throw error.of(plugin: path)
        }
        return (positions, order.map { modules[$0 - positions.lowerBound].name })
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
    /// - Throws: ``HostError`` of code ``HostError/Code/notLoaded``, or
    ///   ``HostError/Code/hasDependents`` when running modules
    ///   of other plugins come after its modules (nothing is stopped).
    @discardableResult
    public func unload(plugin path: String) async throws(HostError) -> [HookOutcome] {
        try await perform(.unload, "unload(plugin:)", refused: { .failure($0.of(plugin: path)) }) { host, _ in
            await host.unloadNow(plugin: path)
        }.get()
    }

    private func unloadNow(plugin path: String) async -> Result<[HookOutcome], HostError> {
        guard lifecycle.isRunning, let roster = lifecycle.roster,
              let index = roster.plugins.firstIndex(where: { $0.library.path == path }) else {
            return .failure(.notLoaded(plugin: path))
        }
        let plugin = roster.plugins[index]
        let dependents = roster.runningDependents(of: plugin.positions)
        guard dependents.isEmpty else { return .failure(.hasDependents(plugin: path, dependents: dependents.map(\.name))) }
        let stopping: [HostedModule] = lifecycle.changeRoster { roster in
            roster.plugins.remove(at: index)
            roster.leaveOut(plugin.positions)
            return roster.takeStarted(at: plugin.positions)
        } ?? []
        let outcomes = await withSpan("unload", root: true, modules: stopping.map(\.name)) { await stop(reversing: stopping).outcomes }
        plugin.library.close()
        return .success(outcomes)
    }

    /// The paths of the plugins loaded, in load order.
    public var loadedPlugins: [String] {
        lifecycle.roster?.plugins.map(\.library.path) ?? []
    }
}
