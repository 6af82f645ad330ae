#if Configuration
import Configuration
#endif
#if Tracing
import Tracing
#endif
#if Metrics
import CoreMetrics
#endif

/// The state a host shares with every module's context.
@usableFromInline
final class HostState: Sendable {
    let configuration: HostConfiguration
    let services = ServiceRegistry()
    @usableFromInline let handlers = EventHandlers()
    /// Event handling times, when ``HostConfiguration/timesEventHandlers``
    /// is on; not made otherwise (a host that does not time pays nothing,
    /// not even the first use of its dictionary's type).
    @usableFromInline let eventTimings: EventTimings?
    let log: HostLog
    /// The trace, when ``HostConfiguration/traceFile`` or its variable names a file.
    let trace: LaunchTrace?
    #if Tracing
    /// The host's spans, through ``HostConfiguration/tracer`` or the
    /// bootstrapped tracer.
    let spans: LifecycleSpans
    #endif
    #if Configuration
    /// The configuration modules and the host read (``HostConfiguration/configProviders``).
    let config: ConfigurationSource
    /// What is wrong with the host's settings in ``config``: the launch
    /// fails on it.
    let settingsProblems: [String]
    #endif
    #if Metrics
    /// The host's metrics, through ``HostConfiguration/metricsFactory`` or
    /// the bootstrapped factory.
    let metrics: HostMetrics
    #endif
    /// Whether the host is ready, stopping, or cut short, and why it stops.
    let shutdown = ShutdownStage()
    /// Asks the host to stop for the module named (``ModuleHost/requestStop(_:)``):
    /// set by the host once it exists (it is made after this state).
    let requestStop = Locked<(@Sendable (String) -> Void)?>(nil)
    /// Tells the host that a joined `run` failed, which stops it: set by
    /// the host, as ``requestStop`` is. Here, once a host, and not in
    /// each `run`, as a weak reference that every `run` would make and
    /// destroy.
    let runFailed = Locked<(@Sendable (HookOutcome) -> Void)?>(nil)

    init(configuration: HostConfiguration) {
        #if Configuration
        // The host's settings in the configuration win over the program's:
        // they are the operator's.
        let config = ConfigurationSource(configuration: configuration)
        let (configuration, problems) = config.settings(over: configuration)
        self.config = config
        self.settingsProblems = problems
        #endif
        self.configuration = configuration
        self.log = HostLog(handler: configuration.log, slowHookThreshold: configuration.slowHookThreshold)
        self.trace = configuration.tracePath.map(LaunchTrace.init(path:))
        self.eventTimings = configuration.timesEventHandlers ? EventTimings(trace: trace) : nil
        #if Tracing
        self.spans = LifecycleSpans(tracer: configuration.tracer ?? InstrumentationSystem.tracer)
        #endif
        #if Metrics
        self.metrics = HostMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        #endif
        #if Configuration
        config.lookups.warn.withLock { $0 = { [weak self] problem in self?.log(.warning, "SectionRegistry: configuration: \(problem)") } }
        #endif
    }

    /// `error`, as a hook threw it, or explained: under the `Configuration`
    /// trait, a failed read of the configuration becomes a
    /// ``ConfigurationError`` that names the key as each provider spells it.
    @inline(__always)
    func explained(_ error: any Error) -> any Error {
        #if Configuration
        config.explained(error)
        #else
        error
        #endif
    }

    /// Ends `module`'s life and forgets what it registered: its handlers
    /// and services. Costs what the module registered, not what every
    /// module did; a second call does nothing.
    func forget(_ module: ModuleLife) {
        guard let registered = module.end() else { return }
        // Most modules register neither: then no call, no lock, and no
        // copy of the name, a module.
        if !registered.handlerEvents.isEmpty { handlers.removeHandlers(of: module, events: registered.handlerEvents) }
        if !registered.services.isEmpty { services.removeServices(of: module.moduleName, types: registered.services) }
    }
}
