import ModuleRecords
import SectionRegistry

/// What the modules of one test did, in the order they did it.
final class Journal: Sendable {
    private let lines = Locked<[String]>([])

    func add(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var entries: [String] {
        lines.withLock { $0 }
    }

    /// The entries that start with `prefix`, without it: `["A", "B"]` for
    /// "stop A", "stop B".
    func modules(_ prefix: String) -> [String] {
        entries.filter { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
    }
}

struct ScriptError: Error, Equatable, CustomStringConvertible {
    let module: String
    let phase: LifecyclePhase
    var description: String { "\(module) was told to fail in \(phase)" }
}

/// A module that writes each hook it runs to a journal and does what its
/// script says.
struct ScriptedModule: AppModule {
    let name: String
    let journal: Journal
    var failsIn: LifecyclePhase?
    /// Runs in setUp, after the journal entry: register services and handlers here.
    var onSetUp: @Sendable (ModuleContext) throws -> Void = { _ in }
    /// Runs in start, between "begin" and "start" entries.
    var whileStarting: @Sendable () async throws -> Void = {}
    /// Runs in reload, after the "reload" entry.
    var whileReloading: @Sendable () async throws -> Void = {}
    /// Runs in stop, after the "stop" entry.
    var whileStopping: @Sendable () async throws -> Void = {}
    /// Never returns from stop, and ignores cancellation.
    var hangsInStop = false
    /// Never returns from reload, and ignores cancellation.
    var hangsInReload = false

    func setUp(_ context: ModuleContext) async throws {
        journal.add("setUp \(name)")
        try onSetUp(context)
        try failIf(.setUp)
    }

    func start(_ context: ModuleContext) async throws {
        journal.add("begin \(name)")
        try await whileStarting()
        journal.add("start \(name)")
        try failIf(.start)
    }

    func ready(_ context: ModuleContext) async throws {
        journal.add("ready \(name)")
        try failIf(.ready)
    }

    func reload(_ context: ModuleContext) async throws {
        journal.add("reload \(name)")
        while hangsInReload { await sleepIgnoringCancellation(.seconds(60)) }
        try await whileReloading()
        try failIf(.reload)
    }

    func stop(_ context: ModuleContext) async throws {
        journal.add("stop \(name)")
        while hangsInStop { await sleepIgnoringCancellation(.seconds(60)) }
        try await whileStopping()
        try failIf(.stop)
    }

    private func failIf(_ phase: LifecyclePhase) throws {
        if failsIn == phase { throw ScriptError(module: name, phase: phase) }
    }
}

/// A registry of scripted modules, declared in Swift.
func declare(_ modules: [ModuleDescriptor]) throws -> ModuleRegistry {
    try ModuleRegistry(declaring: modules)
}

/// Declares a scripted module; `script` adjusts its behaviour.
func scripted(
    _ name: String,
    level: ModuleLevel = .feature,
    priority: Int = 0,
    after: [String] = [],
    concurrent: Bool = false,
    journal: Journal,
    script: @escaping @Sendable (inout ScriptedModule) -> Void = { _ in }
) -> ModuleDescriptor {
    ModuleDescriptor(name: name, level: level, priority: priority, after: after, startsConcurrently: concurrent) {
        var module = ScriptedModule(name: name, journal: journal)
        script(&module)
        return module
    }
}

/// A host configuration that ignores the test process's environment.
func testConfiguration(_ adjust: (inout HostConfiguration) -> Void = { _ in }) -> HostConfiguration {
    var configuration = HostConfiguration()
    configuration.environment = [:]
    configuration.log = HostLogHandler { _, _, _ in }
    adjust(&configuration)
    return configuration
}

/// A door hooks wait at until the test opens it.
final class Gate: Sendable {
    private let isOpen = Locked(false)

    func open() {
        isOpen.withLock { $0 = true }
    }

    /// Returns once the gate is open; ignores cancellation, as a hung hook would.
    func pass() async {
        while !isOpen.withLock({ $0 }) { await sleepIgnoringCancellation(.milliseconds(5)) }
    }
}

extension Journal {
    /// Returns once `entry` is written.
    func waitFor(_ entry: String) async {
        while !entries.contains(entry) { await sleepIgnoringCancellation(.milliseconds(5)) }
    }
}

/// Sleeps for `duration` even if the calling task is cancelled, as a hook
/// that ignores its cancellation would, without spinning: a cancelled
/// `try? await Task.sleep` returns at once, so a loop of it would.
func sleepIgnoringCancellation(_ duration: Duration) async {
    await Task { try? await Task.sleep(for: duration) }.value
}
