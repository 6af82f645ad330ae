import Foundation
import SectionRegistry

/// Launching N modules and dispatching to them, against the hand-written
/// code the seeds started from (seed 004: an array of services, each call
/// forwarded by hand) and Foundation's NotificationCenter (the seeds'
/// mediator). Modules are declared in Swift: launch and dispatch do not
/// depend on how modules were found.
public enum HostBenchmarks {
    struct Ping: ModuleEvent {
        let sequence: Int
    }

    struct Lookup: ModuleEvent {
        typealias Reply = Int
        let key: Int
    }

    /// A module with trivial hooks that handles both events.
    struct TrivialModule: AppModule, HandWrittenService {
        let index: Int
        let moduleCount: Int

        func setUp(_ context: ModuleContext) async throws {
            context.on(Ping.self) { _ in }
            let isLast = index == moduleCount - 1
            context.on(Lookup.self) { lookup in isLast ? lookup.key : nil }
        }

        func handle(_ ping: Ping) async {}
        func setUp() async {}
        func start() async {}
        func ready() async {}
    }

    /// A module that implements no hook, for launch: what the host itself
    /// costs per module, against a loop calling empty methods. (Registering
    /// event handlers is the module's own work, measured by dispatch.)
    struct PlainModule: AppModule, HandWrittenService {
        func handle(_ ping: Ping) async {}
        func setUp() async {}
        func start() async {}
        func ready() async {}
    }

    /// The seeds' hand-written forwarding: one method per lifecycle call and
    /// event, called on each element of an array.
    protocol HandWrittenService: Sendable {
        func setUp() async
        func start() async
        func ready() async
        func handle(_ ping: Ping) async
    }

    /// Prints every measurement for each of `moduleCounts`, as
    /// `key.N value` lines in nanoseconds.
    public static func run(moduleCounts: [Int]) async {
        for count in moduleCounts {
            await measureLaunch(count)
            await measureDispatch(count)
            await measureShutdown(count)
        }
    }

    static func modules(_ count: Int, plain: Bool = false, dependencies: (Int) -> [String]) -> ModuleRegistry {
        let descriptors = (0..<count).map { index in
            ModuleDescriptor(name: "M\(index)", after: dependencies(index)) { () -> any AppModule in
                plain ? PlainModule() : TrivialModule(index: index, moduleCount: count)
            }
        }
        return try! ModuleRegistry(declaring: descriptors)
    }

    static func measureLaunch(_ count: Int) async {
        let shapes: [(String, ModuleRegistry)] = [
            ("launch", modules(count, plain: true) { _ in [] }),
            ("launch_chain", modules(count, plain: true) { $0 == 0 ? [] : ["M\($0 - 1)"] }),
            ("launch_wide", modules(count, plain: true) { $0 == 0 ? [] : ["M0"] }),
        ]
        var configuration = HostConfiguration()
        configuration.environment = [:]
        for (key, registry) in shapes {
            Measurement.report("\(key).\(count)", await Measurement.median(samples: 7) {
                try! await ModuleHost(registry: registry, configuration: configuration).launch()
            })
        }
        Measurement.report("launch_hand_loop.\(count)", await Measurement.median(samples: 7) {
            let services: [any HandWrittenService] = (0..<count).map { _ in PlainModule() }
            for service in services { await service.setUp() }
            for service in services { await service.start() }
            for service in services { await service.ready() }
        })
    }

    /// A module that registers a handler and a service type of its own, so
    /// that shutdown has something of each module to forget.
    struct RegisteringModule: AppModule {
        let index: Int

        func setUp(_ context: ModuleContext) async throws {
            context.on(Ping.self) { _ in }
            try register(Leaf.self, bits: index, remaining: 16, in: context)
        }

        /// Registers `Leaf` wrapped in `Bit0`/`Bit1` by the low bits of
        /// `index`: one service type per module, up to 65,536.
        private func register<Service: Sendable>(_: Service.Type, bits: Int, remaining: Int, in context: ModuleContext) throws {
            guard remaining > 0 else {
                try context.register(Service.self) { () throws -> Service in throw Unused() }
                return
            }
            if bits & 1 == 0 {
                try register(Bit0<Service>.self, bits: bits >> 1, remaining: remaining - 1, in: context)
            } else {
                try register(Bit1<Service>.self, bits: bits >> 1, remaining: remaining - 1, in: context)
            }
        }
    }

    struct Leaf: Sendable {}
    struct Bit0<Inner>: Sendable {}
    struct Bit1<Inner>: Sendable {}
    struct Unused: Error {}

    /// `terminate()` of N modules that each registered a handler and a
    /// service: the median of 5 shutdowns, each of a host launched anew
    /// (the launch is not timed). Linear: 10x the modules, about 10x this.
    ///
    /// Also how the time per module grows from 250 modules to 2,500, the
    /// same at every N (reported under each, for the table's row): about 1x
    /// when shutdown is linear, about 10x when it is quadratic, as it was
    /// when forgetting a module walked every module's registrations. A
    /// ratio of two runs side by side, which the smoke check can judge on
    /// a loaded machine, where one duration cannot be.
    static func measureShutdown(_ count: Int) async {
        Measurement.report("terminate.\(count)", await shutdownNanoseconds(count))
        let perModule = { (modules: Int) async in await shutdownNanoseconds(modules) / Double(modules) }
        Measurement.report("terminate_per_module_250.\(count)", await perModule(250))
        Measurement.report("terminate_per_module_2500.\(count)", await perModule(2_500))
    }

    private static func shutdownNanoseconds(_ count: Int) async -> Double {
        var configuration = HostConfiguration()
        configuration.environment = [:]
        let registry = try! ModuleRegistry(declaring: (0..<count).map { index in
            ModuleDescriptor(name: "M\(index)") { () -> any AppModule in RegisteringModule(index: index) }
        })
        var samples: [Double] = []
        for _ in 0..<5 {
            let host = ModuleHost(registry: registry, configuration: configuration)
            try! await host.launch()
            let clock = ContinuousClock()
            let start = clock.now
            await host.terminate()
            let elapsed = start.duration(to: clock.now).components
            samples.append(Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9)
        }
        return samples.sorted()[samples.count / 2]
    }

    static func measureDispatch(_ count: Int) async {
        var configuration = HostConfiguration()
        configuration.environment = [:]
        let host = ModuleHost(registry: modules(count) { _ in [] }, configuration: configuration)
        try! await host.launch()

        Measurement.report("broadcast.\(count)", await Measurement.median {
            _ = await host.broadcast(Ping(sequence: 1))
        })
        let services: [any HandWrittenService] = (0..<count).map { TrivialModule(index: $0, moduleCount: count) }
        Measurement.report("broadcast_hand_loop.\(count)", await Measurement.median {
            for service in services { await service.handle(Ping(sequence: 1)) }
        })
        Measurement.report("first_handler_last.\(count)", await Measurement.median {
            guard await host.firstHandler(for: Lookup(key: 7)).firstReply != nil else { fatalError("the last module did not answer") }
        })

        let center = NotificationCenter()
        let name = Notification.Name("Ping")
        let observers = (0..<count).map { _ in center.addObserver(forName: name, object: nil, queue: nil) { _ in } }
        Measurement.report("notification_center.\(count)", await Measurement.median {
            center.post(name: name, object: nil)
        })
        for observer in observers { center.removeObserver(observer) }
    }
}
