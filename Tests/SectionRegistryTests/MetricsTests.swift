#if Metrics
import MetricsTestKit
import SectionRegistry
import SectionRegistryTesting
import Testing

/// The host's metrics under the `Metrics` trait (Metrics.md), recorded by
/// swift-metrics' `TestMetrics`: their names, dimensions and values.
@Suite struct MetricsTests {
    typealias Store = ObservedModules.Store

    struct Server: AppModule {
        func start(_ context: ModuleContext) async throws {}
        func run(_ context: ModuleContext) async throws {
            try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    @Test func aLaunchAndAShutdownAreCountedAndTimedPerModule() async throws {
        let metrics = TestMetrics()
        try await withTestHost([
            ModuleDescriptor(name: "Store", level: .service) { Store() },
            ModuleDescriptor(name: "Server", after: ["Store"]) { Server() },
        ], configuration: { $0.metricsFactory = metrics }) { test in
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        #expect(try metrics.expectGauge("section_registry_modules_running").values == [2, 0])
        for (module, phase) in [("Store", "setUp"), ("Server", "start"), ("Store", "stop")] {
            let timer = try metrics.expectTimer("section_registry_hook_duration", [("module", module), ("phase", phase)])
            #expect(timer.values.count == 1, "\(module) \(phase)")
        }
        // A hook a module does not write is not timed.
        #expect(metrics.timers(label: "section_registry_hook_duration", dimensions: [("module", "Server"), ("phase", "stop")]).isEmpty)
        #expect(metrics.timers(label: "section_registry_hook_duration", dimensions: [("module", "Store"), ("phase", "start")]).isEmpty)
        let drain = try metrics.expectTimer("section_registry_drain_duration", [("module", "Server"), ("outcome", "drained")])
        #expect(drain.values.count == 1)
        #expect(metrics.counterTotal(label: "section_registry_shutdowns_total", dimensions: [("reason", "terminate")]) == 1)
        #expect(metrics.counters(label: "section_registry_hook_failures_total").isEmpty, "nothing failed")
    }

    @Test func aFailedHookIsCountedWithItsModulePhaseAndOutcome() async throws {
        let metrics = TestMetrics()
        try await ObservedModules.failLaunch { $0.metricsFactory = metrics }
        let failures = [("module", "Broken"), ("phase", "start"), ("outcome", "failed")]
        #expect(metrics.counterTotal(label: "section_registry_hook_failures_total", dimensions: failures) == 1)
        // Store started, then stopped again by the rollback.
        #expect(try metrics.expectGauge("section_registry_modules_running").values == [1, 0])
    }
}
#endif
