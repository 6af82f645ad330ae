#if Tracing
import InMemoryTracing
import SectionRegistry
import SectionRegistryTesting
import Testing
import Tracing

/// The host's spans under the `Tracing` trait (Tracing.md), recorded by
/// swift-distributed-tracing's `InMemoryTracer`: their names, their tree,
/// their attributes and errors.
@Suite struct TracingTests {
    typealias Store = ObservedModules.Store

    /// A server: a start with a span of its own, a run that drains, a stop.
    struct Server: AppModule {
        func start(_ context: ModuleContext) async throws {
            try await context.tracer.withSpan("warm cache") { _ in try await Task.sleep(for: .milliseconds(1)) }
        }
        func run(_ context: ModuleContext) async throws {
            try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
        }
        func stop(_ context: ModuleContext) async throws {}
    }

    /// A module that writes no hook at all.
    struct Quiet: AppModule {}

    @Test func aLaunchAndAShutdownAreSpanTreesOfTheHooksTheModulesWrite() async throws {
        let tracer = InMemoryTracer()
        try await withTestHost([
            ModuleDescriptor(name: "Store", level: .service) { Store() },
            ModuleDescriptor(name: "Server", level: .feature, after: ["Store"]) { Server() },
            ModuleDescriptor(name: "Quiet") { Quiet() },
        ], configuration: { $0.tracer = tracer }) { test in
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        // Every span ended by the time the stop returned.
        #expect(tracer.activeSpans.map(\.operationName) == [])
        let spans = tracer.finishedSpans
        let parents = Self.parents(spans)
        #expect(parents["launch"] == .some(nil), "the launch is a root: \(parents)")
        for hook in ["Store setUp", "Server start", "Server run"] {
            #expect(parents[hook] == "launch", "\(hook) under the launch: \(parents)")
        }
        #expect(parents["warm cache"] == "Server start", "a module's own span nests under its hook's: \(parents)")
        #expect(parents["shutdown"] == .some(nil), "the shutdown is a root: \(parents)")
        for step in ["Server drain", "Server stop", "Store stop"] {
            #expect(parents[step] == "shutdown", "\(step) under the shutdown: \(parents)")
        }
        // Only what a module writes: Quiet none, Store no start or run.
        #expect(!spans.contains { $0.operationName.hasPrefix("Quiet") }, "\(parents.keys.sorted())")
        #expect(parents["Store start"] == nil && parents["Store run"] == nil && parents["Store drain"] == nil, "\(parents.keys.sorted())")
        // No lame duck (zero, no balancer), no intake (no onIntakeStop).
        #expect(parents["lame duck"] == nil && parents["intake"] == nil, "\(parents.keys.sorted())")
        // The steps in order: drained, then stopped in reverse start order.
        let ends = Dictionary(spans.map { ($0.operationName, $0.endInstant.nanosecondsSinceEpoch) }, uniquingKeysWith: { first, _ in first })
        #expect(ends["Server drain"]! <= ends["Server stop"]! && ends["Server stop"]! <= ends["Store stop"]!)

        let start = try #require(spans.first { $0.operationName == "Server start" })
        #expect(start.attributes["section_registry.module"]?.toSpanAttribute() == "Server")
        #expect(start.attributes["section_registry.level"]?.toSpanAttribute() == "feature")
        #expect(start.attributes["section_registry.phase"]?.toSpanAttribute() == "start")
        #expect(start.attributes["section_registry.outcome"]?.toSpanAttribute() == "completed")
        let run = try #require(spans.first { $0.operationName == "Server run" })
        #expect(run.attributes["section_registry.outcome"]?.toSpanAttribute() == "cancelled", "it ended by cancelOnDrain")
        let drain = try #require(spans.first { $0.operationName == "Server drain" })
        #expect(drain.attributes["section_registry.outcome"]?.toSpanAttribute() == "drained")
        #expect(run.status == nil && drain.status == nil && start.status == nil, "clean outcomes are no errors")
        let shutdown = try #require(spans.first { $0.operationName == "shutdown" })
        #expect(shutdown.attributes["section_registry.stop_reason"]?.toSpanAttribute() == "terminate")
        #expect(shutdown.events.map(\.name) == ["readiness withdrawn"])
        #expect(shutdown.status == nil, "a clean shutdown")
    }

    @Test func aFailedHookRecordsItsErrorAndTheLaunchSpanTheLaunchFailure() async throws {
        let tracer = InMemoryTracer()
        try await ObservedModules.failLaunch { $0.tracer = tracer }
        let spans = tracer.finishedSpans
        let broken = try #require(spans.first { $0.operationName == "Broken start" })
        #expect(broken.attributes["section_registry.outcome"]?.toSpanAttribute() == "failed")
        #expect(broken.errors.map { "\($0.error)" } == ["disk full"])
        #expect(broken.status?.code == .error)
        let launch = try #require(spans.first { $0.operationName == "launch" })
        #expect(launch.errors.count == 1 && launch.status?.code == .error, "the launch failed")
        // The rollback stopped Store again, within the launch.
        #expect(Self.parents(spans)["Store stop"] == "launch", "\(Self.parents(spans))")
    }

    /// A server with an intake to stop, whose run returns once drained.
    struct Intake: AppModule {
        func run(_ context: ModuleContext) async throws {
            let drained = AsyncStream<Void>.makeStream()
            await context.withDrainHandler {
                for await _ in drained.stream {}
            } onIntakeStop: {
            } onDrain: {
                drained.continuation.finish()
            }
        }
        func reload(_ context: ModuleContext) async throws {}
    }

    @Test func theLameDuckAndTheIntakeAreStepsOfTheShutdownWhenTheyHappen() async throws {
        let tracer = InMemoryTracer()
        try await withTestHost([ModuleDescriptor(name: "Intake") { Intake() }], configuration: {
            $0.tracer = tracer
            $0.lameDuckDelay = .milliseconds(10)
        }) { test in
            #expect(await test.host.reload().filter(\.isFailure).isEmpty)
            #expect(await test.stop().filter(\.isFailure).isEmpty)
        }
        let spans = tracer.finishedSpans
        let parents = Self.parents(spans)
        #expect(parents["reload"] == .some(nil) && parents["Intake reload"] == "reload", "\(parents)")
        for step in ["lame duck", "intake", "Intake drain"] {
            #expect(parents[step] == "shutdown", "\(step) under the shutdown: \(parents)")
        }
        let intake = try #require(spans.first { $0.operationName == "intake" })
        #expect(intake.attributes["section_registry.modules"]?.toSpanAttribute() == "Intake")
        let ends = Dictionary(spans.map { ($0.operationName, $0.endInstant.nanosecondsSinceEpoch) }, uniquingKeysWith: { first, _ in first })
        #expect(ends["lame duck"]! <= ends["intake"]! && ends["intake"]! <= ends["Intake drain"]!)
    }

    /// A start that does not return when cancelled: the host goes on past
    /// its limit, and the span ends then, as timed out, while it still runs.
    struct Stuck: AppModule {
        let released: Locked<Bool>
        func start(_ context: ModuleContext) async throws {
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func aHookTheHostLeftBehindEndsItsSpanWhenTheHostWentOn() async throws {
        let tracer = InMemoryTracer()
        let released = Locked(false)
        defer { released.withLock { $0 = true } }
        var configuration = HostConfiguration()
        configuration.tracer = tracer
        configuration.log = .standardError(logLevel: .critical)
        configuration.startTimeLimit = .milliseconds(50)
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [ModuleDescriptor(name: "Stuck") { Stuck(released: released) }]),
                              configuration: configuration)
        await #expect(throws: HostError.self) { try await host.launch() }
        let stuck = try #require(tracer.finishedSpans.first { $0.operationName == "Stuck start" }, "ended while the hook still runs")
        #expect(stuck.attributes["section_registry.outcome"]?.toSpanAttribute() == "timedOut")
        #expect(stuck.status?.code == .error)
    }

    /// Each span's parent's name (`nil` for a root), by name.
    static func parents(_ spans: [FinishedInMemorySpan]) -> [String: String?] {
        let names = Dictionary(spans.map { ($0.spanID, $0.operationName) }, uniquingKeysWith: { first, _ in first })
        return Dictionary(spans.map { ($0.operationName, $0.parentSpanID.flatMap { names[$0] }) }, uniquingKeysWith: { first, _ in first })
    }
}
#endif
