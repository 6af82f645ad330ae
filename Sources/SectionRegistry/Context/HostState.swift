/// The state a host shares with every module's context.
@usableFromInline
final class HostState: Sendable {
    let configuration: HostConfiguration
    let services = ServiceRegistry()
    @usableFromInline let handlers = EventHandlers()
    let eventTimings = EventTimings()
    /// ``eventTimings`` when ``HostConfiguration/timesEventHandlers`` is on.
    @usableFromInline let eventTimingsIfEnabled: EventTimings?

    init(configuration: HostConfiguration) {
        self.configuration = configuration
        self.eventTimingsIfEnabled = configuration.timesEventHandlers ? eventTimings : nil
    }

    /// Forgets what `module` registered: its handlers and services.
    func forget(_ module: String) {
        handlers.removeHandlers(of: module)
        services.removeServices(of: module)
    }
}
