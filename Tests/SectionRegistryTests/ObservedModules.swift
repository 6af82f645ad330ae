#if Tracing || Metrics
import SectionRegistry
import Testing

/// Modules whose hooks the `Tracing` and `Metrics` tests observe.
enum ObservedModules {
    /// A store: setUp and stop, no run.
    struct Store: AppModule {
        func setUp(_ context: ModuleContext) async throws {}
        func stop(_ context: ModuleContext) async throws {}
    }

    /// A module whose start fails.
    struct Broken: AppModule {
        struct DiskFull: Error, CustomStringConvertible {
            var description: String { "disk full" }
        }
        func start(_ context: ModuleContext) async throws { throw DiskFull() }
    }

    /// Launches Store, then Broken, on a host `configure` sets up: the
    /// launch fails at Broken's start and stops Store again.
    static func failLaunch(_ configure: (inout HostConfiguration) -> Void) async throws {
        var configuration = HostConfiguration()
        configuration.log = .standardError(logLevel: .critical)
        configure(&configuration)
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [
            ModuleDescriptor(name: "Store", level: .service) { Store() },
            ModuleDescriptor(name: "Broken", after: ["Store"]) { Broken() },
        ]), configuration: configuration)
        await #expect(throws: HostError.self) { try await host.launch() }
    }
}
#endif
