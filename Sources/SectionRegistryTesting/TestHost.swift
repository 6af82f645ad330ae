import SectionRegistry
import Synchronization

/// A host of the modules under test, launched: what the body of
/// ``withTestHost(_:configuration:fakes:isolation:_:)`` drives and observes.
///
/// Events go through ``host`` (`broadcast`, `firstHandler`, `gather`, each
/// with its `DispatchReport`), as do the status and the stop reason;
/// services through ``context``; what was logged is in ``log``.
public final class TestHost: Sendable {
    /// The host: `broadcast(_:)`, `gather(_:)`, `firstHandler(for:)`,
    /// `status`, `stopReason`, `runningModules`, `reload()`, `remove(_:)`.
    public let host: ModuleHost
    /// The test's own context, named `test`: look up what a module
    /// registered (`try test.context.service(Store.self)`), handle an
    /// event a module sends (`test.context.on(...)`: the test's handlers
    /// come before every module's), register more services.
    public let context: ModuleContext
    /// Every line the host and its modules logged at debug and above: a
    /// module's own debug lines, not the trace lines of the libraries it
    /// drives through `context.logger` (to record those too:
    /// `configuration: { $0.log.logLevel = .trace }`).
    public let log: LogRecorder
    private let state = Mutex(State())

    private struct State {
        /// Whether the test called ``stop()``: then it has the outcomes.
        var stoppedByTest = false
        /// The failures ``drain(_:)`` returned to the test.
        var handed: [HookOutcome] = []
    }

    init(_ modules: [ModuleDescriptor], configure: (inout HostConfiguration) -> Void) throws {
        let log = LogRecorder()
        var configuration = HostConfiguration()
        configuration.arguments = []
        configuration.environment = [:]
        configuration.log = log.handler(logLevel: .debug)
        configuration.drainTimeLimit = .seconds(5)
        configuration.stopTimeLimit = .seconds(5)
        configuration.readinessTimeLimit = .seconds(5)
        configure(&configuration)
        self.log = log
        host = ModuleHost(registry: try ModuleRegistry(declaring: modules), configuration: configuration)
        context = host.makeDriverContext(named: "test")
    }

    /// Asks `module`'s `run`, alone, to drain, as the shutdown would, and
    /// waits until it has ended: within the drain limit, or cancelled past
    /// it. The module stays started; its stop hook runs when the host stops.
    ///
    /// ```swift
    /// let outcome = try await test.drain("Ticker")
    /// #expect(!outcome.isFailure)
    /// ```
    ///
    /// - Returns: how the `run` ended: `.completed` (it returned, or gave
    ///   way to the drain), `.failed` (it threw: the host then stops, as it
    ///   would in production), `.timedOut` (cancelled past
    ///   `HostConfiguration.drainTimeLimit`) or `.cutOff` (it ignored that
    ///   too). A failure returned here is not thrown again at the end of the
    ///   scope.
    /// - Throws: ``TestHostError`` if no started module has that name, or
    ///   the module has no `run` going.
    public func drain(_ module: String) async throws -> HookOutcome {
        let started = await host.runningModules
        guard started.contains(module) else { throw TestHostError.notStarted(module, started: started) }
        guard let outcome = try await host.drainRun(of: module) else { throw TestHostError.noRun(module) }
        if outcome.isFailure { state.withLock { $0.handed.append(outcome) } }
        return outcome
    }

    /// Stops the host, with the shutdown a SIGTERM begins (every `run`
    /// drained in reverse start order, then every stop hook; its stop
    /// reason is `StopReason.terminate`), and returns what the shutdown
    /// did; at once, with the same, if the host has stopped already. The
    /// end of the scope then throws nothing for it: the test has the
    /// outcomes.
    ///
    /// - Returns: each `run` that failed while the host ran, each stop
    ///   hook's outcome in the order called (of the modules that write
    ///   one), and each `run` that did not drain cleanly.
    @discardableResult
    public func stop() async -> [HookOutcome] {
        state.withLock { $0.stoppedByTest = true }
        return await shutdown()
    }

    /// The end of the scope: stops the host if the test did not.
    ///
    /// - Returns: the failures of a shutdown the test did not ask for,
    ///   but those ``drain(_:)`` returned.
    func stopAtEndOfScope() async -> [HookOutcome] {
        let report = await shutdown()
        let (stoppedByTest, handed) = state.withLock { ($0.stoppedByTest, $0.handed) }
        guard !stoppedByTest else { return [] }
        return report.filter { outcome in
            outcome.isFailure && !handed.contains { $0.module == outcome.module && $0.phase == outcome.phase }
        }
    }

    private func shutdown() async -> [HookOutcome] {
        await host.terminate()
        return await host.shutdownReport
    }
}
