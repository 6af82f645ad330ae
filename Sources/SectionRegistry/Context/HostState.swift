/// The state a host shares with every module's context.
final class HostState: Sendable {
    let configuration: HostConfiguration
    let services = ServiceRegistry()
    let handlers = EventHandlers()
    let eventTimings = EventTimings()

    init(configuration: HostConfiguration) {
        self.configuration = configuration
    }

    /// Forgets what `module` registered: its handlers and services.
    func forget(_ module: String) {
        handlers.removeHandlers(of: module)
        services.removeServices(of: module)
    }

    /// Forgets every handler and service: after a failed launch.
    func forgetEverything() {
        handlers.removeAll()
        services.removeAll()
    }
}
