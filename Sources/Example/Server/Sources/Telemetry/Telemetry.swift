import Hummingbird
import Metrics
import Prometheus
import Routing
import SectionRegistry

@c(app_module_Telemetry) func makeTelemetry() -> AppModuleHandle { AppModuleHandle(Telemetry()) }

/// A feature: `GET /metrics`, the metrics of the registry the program
/// bootstrapped swift-metrics with (swift-prometheus' text format): the
/// host's own (`section_registry_*`, the `Metrics` trait) and every
/// library's. Without a Prometheus factory bootstrapped, the launch fails
/// here, naming the fix.
struct Telemetry: AppModule {
    struct NoPrometheus: Error, CustomStringConvertible {
        var description: String {
            "swift-metrics is not bootstrapped with a PrometheusMetricsFactory: call MetricsSystem.bootstrap(PrometheusMetricsFactory()) "
                + "in main, before the host is made"
        }
    }

    func start(_ context: ModuleContext) async throws {
        guard let registry = (MetricsSystem.factory as? PrometheusMetricsFactory)?.registry else { throw NoPrometheus() }
        try context.service(Routes.self).add { router in
            router.get("/metrics") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                         body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
            }
        }
    }
}
