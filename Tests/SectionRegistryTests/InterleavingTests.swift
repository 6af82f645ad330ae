import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Launch, loads, removes, reloads, gathers and terminate issued from
/// several tasks at once, with random hook delays and failures; after each
/// run the engine's invariants must hold, whatever the interleaving was.
/// Modules make requests of their own host too: from start, from a
/// handler, from stop.
@Suite struct InterleavingTests {
    /// One module of a run: its name and the modules it comes after.
    struct Planned {
        let name: String
        let after: [String]
    }

    /// The modules of one seed: the program's, and three plugins' (each may
    /// come after the program's modules or an earlier plugin's).
    struct Scenario {
        var program: [Planned] = []
        var plugins: [[Planned]] = []
        var failing: Set<String> = []
        var delays: [String: Int] = [:]
        /// Modules that make requests of their own host (issue 26): from
        /// start (refused at once), from a handler or a run (remove
        /// itself), from stop (terminate, which returns at once).
        var asksInStart: Set<String> = []
        var removesItselfInHandler: Set<String> = []
        var removesItselfInRun: Set<String> = []
        var terminatesInStop: Set<String> = []

        init(seed: UInt64) {
            var random = SeededRandom(seed: seed)
            var names: [String] = []
            for index in 0..<6 {
                let name = "P\(index)"
                let after = names.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                program.append(Planned(name: name, after: after))
                names.append(name)
            }
            for plugin in 0..<3 {
                var modules: [Planned] = []
                for index in 0..<2 {
                    let name = "L\(plugin)\(index)"
                    let after = names.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
                    modules.append(Planned(name: name, after: after))
                    names.append(name)
                }
                plugins.append(modules)
            }
            for name in names {
                if Int.random(in: 0..<12, using: &random) == 0 { failing.insert(name) }
                delays[name] = Int.random(in: 0..<3, using: &random)
                if Int.random(in: 0..<5, using: &random) == 0 { asksInStart.insert(name) }
                if Int.random(in: 0..<6, using: &random) == 0 { removesItselfInHandler.insert(name) }
                if Int.random(in: 0..<8, using: &random) == 0 { terminatesInStop.insert(name) }
                if !failing.contains(name), Int.random(in: 0..<6, using: &random) == 0 { removesItselfInRun.insert(name) }
            }
        }

        func descriptors(_ modules: [Planned], journal: Journal, host: HostBox) -> [ModuleDescriptor] {
            modules.map { planned in
                let name = planned.name
                let delay = delays[name] ?? 0
                let fails = failing.contains(name)
                let (asksInStart, removesItself, terminatesInStop) =
                    (asksInStart.contains(name), removesItselfInHandler.contains(name), terminatesInStop.contains(name))
                let removesItselfInRun = removesItselfInRun.contains(name)
                let descriptor = scripted(name, after: planned.after, concurrent: planned.after.isEmpty, journal: journal) { module in
                    // A failing start throws before its "start" entry: the
                    // journal's "start NAME" means the host counts it started.
                    module.whileStarting = {
                        try await Task.sleep(for: .milliseconds(delay))
                        if asksInStart { _ = await host.value.reload() }
                        if fails { throw ScriptError(module: name, phase: .start) }
                    }
                    module.whileStopping = {
                        try await Task.sleep(for: .milliseconds(delay))
                        if terminatesInStop { await host.value.terminate() }
                    }
                    module.onSetUp = { context in
                        context.on(Quick.self) { _ in
                            if removesItself { _ = try? await host.value.remove(name) }
                            return 1
                        }
                    }
                }
                guard removesItselfInRun else { return descriptor }
                return ModuleDescriptor(name: name, after: planned.after, startsConcurrently: planned.after.isEmpty) {
                    RemovingItselfInRun(inner: descriptor, pause: delay * 3, host: host)
                }
            }
        }

        var dependencies: [String: [String]] {
            Dictionary(uniqueKeysWithValues: (program + plugins.flatMap { $0 }).map { ($0.name, $0.after) })
        }
    }

    @Test func theInvariantsHoldForAnyInterleaving() async throws {
        var exercised = (loads: 0, cancelledLaunches: 0)
        for seed in 1...32 as ClosedRange<UInt64> {
            let journal = try await interleave(seed: seed)
            if journal.contains(where: { $0.hasPrefix("start L") }) { exercised.loads += 1 }
            if !journal.contains(where: { $0.hasPrefix("ready P") }) { exercised.cancelledLaunches += 1 }
        }
        // The seeds reach every kind of interleaving: a test that never
        // loaded or never cancelled a launch would prove little.
        #expect(exercised.loads > 4 && exercised.cancelledLaunches > 0, "\(exercised)")
    }

    /// One seed's run; checks the invariants and returns the journal.
    func interleave(seed: UInt64) async throws -> [String] {
        let scenario = Scenario(seed: seed)
        let journal = Journal()
        let box = HostBox()
        let host = ModuleHost(registry: try declare(scenario.descriptors(scenario.program, journal: journal, host: box)),
                              configuration: testConfiguration())
        box.set(host)
        var random = SeededRandom(seed: seed &* 7919)
        let removals = (0..<3).map { _ in scenario.program.randomElement(using: &random)!.name }
        let pauses = (0..<8).map { _ in Int.random(in: 0..<4, using: &random) }

        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await host.launch() }
            // The others mostly once the host runs, so that they meet each
            // other rather than a launch that refuses them.
            for (index, plugin) in scenario.plugins.enumerated() {
                group.addTask {
                    if index > 0 { _ = await host.waitUntilRunning() }
                    try? await Task.sleep(for: .milliseconds(pauses[index]))
                    _ = try? await host.load(scenario.descriptors(plugin, journal: journal, host: box), from: "plugin \(index)")
                }
            }
            for (index, name) in removals.enumerated() {
                group.addTask {
                    _ = await host.waitUntilRunning()
                    try? await Task.sleep(for: .milliseconds(pauses[3 + index]))
                    _ = try? await host.remove(name)
                }
            }
            group.addTask {
                _ = await host.waitUntilRunning()
                _ = await host.reload()
                _ = await host.gather(Quick())
            }
            group.addTask {
                // One seed in four terminates during launch, the others
                // among the loads and removals.
                if pauses[6] > 0 { _ = await host.waitUntilRunning() }
                try? await Task.sleep(for: .milliseconds(pauses[6] * 2 + pauses[7]))
                await host.terminate()
            }
        }
        await host.terminate()
        let final = journal.entries.count
        try await Task.sleep(for: .milliseconds(30))
        #expect(journal.entries.count == final, "seed \(seed): nothing runs after the host has stopped")
        check(journal.entries, dependencies: scenario.dependencies, seed: seed)
        #expect(host.status.isFinal, "seed \(seed)")
        return journal.entries
    }

    /// The invariants: a module starts only after every module it comes
    /// after has started and while they run; each module that started is
    /// stopped exactly once, and before the modules it comes after; no
    /// module that did not start is stopped.
    func check(_ entries: [String], dependencies: [String: [String]], seed: UInt64) {
        var running: Set<String> = []
        var started: Set<String> = []
        var stopped: Set<String> = []
        for entry in entries {
            let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let (what, name) = (parts[0], parts[1])
            switch what {
            case "start":
                for dependency in dependencies[name] ?? [] {
                    #expect(running.contains(dependency), "seed \(seed): \(name) started while \(dependency), which it comes after, was not running")
                }
                #expect(!started.contains(name), "seed \(seed): \(name) started twice")
                started.insert(name)
                running.insert(name)
            case "stop":
                #expect(running.contains(name), "seed \(seed): \(name) stopped but it was not running")
                #expect(!stopped.contains(name), "seed \(seed): \(name) stopped twice")
                for (dependent, after) in dependencies where after.contains(name) {
                    #expect(!running.contains(dependent), "seed \(seed): \(name) stopped while \(dependent), which comes after it, ran")
                }
                stopped.insert(name)
                running.remove(name)
            default:
                continue
            }
        }
        #expect(running.isEmpty, "seed \(seed): never stopped: \(running.sorted())")

    }
}

/// A scripted module whose `run` removes its own module after `pause`
/// milliseconds: it begins during the bring-up, so the removal may wait
/// for its turn behind a launch or load, meet a shutdown, or be refused.
private struct RemovingItselfInRun: AppModule {
    let inner: any AppModule
    let name: String
    let pause: Int
    let host: HostBox

    init(inner descriptor: ModuleDescriptor, pause: Int, host: HostBox) {
        self.inner = try! descriptor.makeModule()
        self.name = descriptor.name
        self.pause = pause
        self.host = host
    }

    func setUp(_ context: ModuleContext) async throws { try await inner.setUp(context) }
    func start(_ context: ModuleContext) async throws { try await inner.start(context) }
    func ready(_ context: ModuleContext) async throws { try await inner.ready(context) }
    func reload(_ context: ModuleContext) async throws { try await inner.reload(context) }
    func stop(_ context: ModuleContext) async throws { try await inner.stop(context) }

    func run(_ context: ModuleContext) async throws {
        try await Task.sleep(for: .milliseconds(pause))
        _ = try? await host.value.remove(name)
    }
}
