// The drain job with swift-service-lifecycle: a ServiceGroup of N services,
// each named (a default configuration names a service with "\(service)",
// which costs reflection; the host's modules always have names), each
// `run` serving until the graceful shutdown.
import DrainPeers
import Logging
import ServiceLifecycle

struct Server: Service {
    let arrivals: Arrivals

    func run() async throws {
        let gate = Gate()
        arrivals.arrive()
        await withGracefulShutdownHandler { await gate.wait() } onGracefulShutdown: { gate.open() }
    }
}

let count = serviceCount()
let arrivals = Arrivals(expected: count)
let group = ServiceGroup(configuration: ServiceGroupConfiguration(
    services: (0..<count).map { index in
        ServiceGroupConfiguration.ServiceConfiguration(service: Server(arrivals: arrivals), serviceName: "M\(index)")
    },
    gracefulShutdownSignals: [], cancellationSignals: [],
    logger: Logger(label: "drain-group") { _ in SwiftLogNoOpLogHandler() }))
try await withThrowingDiscardingTaskGroup { tasks in
    tasks.addTask { try await group.run() }
    await arrivals.all()
    await group.triggerGracefulShutdown()
}
