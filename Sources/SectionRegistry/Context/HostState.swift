/// The state a host shares with every module's context.
@usableFromInline
final class HostState: Sendable {
    let configuration: HostConfiguration
    let services = ServiceRegistry()
    @usableFromInline let handlers = EventHandlers()
    let eventTimings: EventTimings
    /// ``eventTimings`` when ``HostConfiguration/timesEventHandlers`` is on.
    @usableFromInline let eventTimingsIfEnabled: EventTimings?
    let log: HostLog
    /// The trace, when ``HostConfiguration/traceFile`` or its variable names a file.
    let trace: LaunchTrace?

    init(configuration: HostConfiguration) {
        self.configuration = configuration
        self.log = HostLog(handler: configuration.log, slowHookThreshold: configuration.slowHookThreshold)
        self.trace = configuration.tracePath.map(LaunchTrace.init(path:))
        self.eventTimings = EventTimings(trace: trace)
        self.eventTimingsIfEnabled = configuration.timesEventHandlers ? eventTimings : nil
    }

    /// Forgets what `module` registered: its handlers and services.
    func forget(_ module: String) {
        handlers.removeHandlers(of: module)
        services.removeServices(of: module)
    }
}
