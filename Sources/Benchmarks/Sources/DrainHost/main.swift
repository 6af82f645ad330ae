// The drain job with SectionRegistry: N independent modules, one level,
// declared in Swift, each `run` serving until the host drains it.
import DrainPeers
import SectionRegistry

struct Server: AppModule {
    let arrivals: Arrivals

    func run(_ context: ModuleContext) async throws {
        let gate = Gate()
        arrivals.arrive()
        await context.withDrainHandler { await gate.wait() } onDrain: { gate.open() }
    }
}

let count = serviceCount()
let arrivals = Arrivals(expected: count)
var configuration = HostConfiguration()
configuration.environment = [:]
let registry = try ModuleRegistry(declaring: (0..<count).map { index in
    ModuleDescriptor(name: "M\(index)") { Server(arrivals: arrivals) }
})
let host = ModuleHost(registry: registry, configuration: configuration)
try await host.launch()
await arrivals.all()
await host.terminate()
