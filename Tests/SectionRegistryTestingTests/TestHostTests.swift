import SectionRegistry
import SectionRegistryTesting
import Synchronization
import Testing

/// withTestHost and TestHost: the modules start in their declared order,
/// every failure reaches the test, the host is stopped at the end of the
/// scope whatever the test did, and a test's limits are its own.
@Suite(.timeLimit(.minutes(2))) struct TestHostTests {
    /// A module that logs each hook it runs, and does what it is told.
    struct Probe: AppModule {
        var failsIn: LifecyclePhase?
        var run: (@Sendable (ModuleContext) async throws -> Void)?
        var setUp: @Sendable (ModuleContext) throws -> Void = { _ in }

        func setUp(_ context: ModuleContext) async throws {
            context.log("setUp")
            try setUp(context)
            try failIf(.setUp)
        }

        func start(_ context: ModuleContext) async throws {
            context.log("start")
            try failIf(.start)
        }

        func run(_ context: ModuleContext) async throws {
            guard let run else { return try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) } }
            try await run(context)
        }

        func stop(_ context: ModuleContext) async throws {
            context.log("stop")
            try failIf(.stop)
        }

        private func failIf(_ phase: LifecyclePhase) throws {
            if failsIn == phase { throw Failure(phase: phase) }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let phase: LifecyclePhase
        var description: String { "told to fail in \(phase)" }
    }

    /// The hooks each module ran, as "Module hook", in the order run.
    func hooks(_ test: TestHost) -> [String] {
        test.log.lines.filter { !$0.isFromHost && $0.module != nil }.map { "\($0.module!) \($0.message)" }
    }

    @Test func modulesStartInTheirDeclaredOrderAndStopInReverseAtTheEndOfTheScope() async throws {
        var ran: [String] = []
        let test = try await withTestHost([
            ModuleDescriptor(name: "Search", after: ["Storage"]) { Probe() },
            ModuleDescriptor(name: "Audit", level: .late) { Probe() },
            ModuleDescriptor(name: "Storage", level: .service) { Probe() },
            ModuleDescriptor(name: "Billing", priority: 5) { Probe() },
        ]) { test in
            #expect(await test.host.runningModules == ["Storage", "Billing", "Search", "Audit"])
            #expect("\(test.host.status)" == "running")
            ran = hooks(test)
            return test
        }
        #expect(ran == ["Storage setUp", "Billing setUp", "Search setUp", "Audit setUp",
                        "Storage start", "Billing start", "Search start", "Audit start"])
        #expect(hooks(test).suffix(4) == ["Audit stop", "Search stop", "Billing stop", "Storage stop"])
        guard case .stopped(let failures) = test.host.status else { Issue.record("\(test.host.status)"); return }
        #expect(failures.isEmpty)
    }

    @Test(arguments: [LifecyclePhase.setUp, .start])
    func aHookThatFailsInTheLaunchIsTheTestsErrorNamingTheModuleAndTheHook(phase: LifecyclePhase) async throws {
        let bodyRan = Mutex(false)
        let error = await #expect(throws: HostError.self) {
            try await withTestHost([
                ModuleDescriptor(name: "Storage", level: .service) { Probe() },
                ModuleDescriptor(name: "Billing") { Probe(failsIn: phase) },
            ]) { _ in bodyRan.withLock { $0 = true } }
        }
        #expect(error?.code == .moduleFailed)
        #expect(error?.module == "Billing")
        #expect(error?.phase == phase)
        #expect(error.map { "\($0)" }?.contains("told to fail in \(phase)") == true)
        #expect(bodyRan.withLock { !$0 })
        // What started is stopped: after a failed setUp nothing had.
        #expect(error?.rollback.map { "\($0.module) \($0.phase) \($0.isFailure)" } == (phase == .start ? ["Storage stop false"] : []))
    }

    @Test func theHostIsStoppedWhenTheBodyThrowsAndTheBodysErrorIsThrown() async throws {
        struct BodyError: Error {}
        let kept = Mutex<TestHost?>(nil)
        await #expect(throws: BodyError.self) {
            try await withTestHost([ModuleDescriptor(name: "Billing") { Probe() }]) { test in
                kept.withLock { $0 = test }
                throw BodyError()
            }
        }
        let test = try #require(kept.withLock { $0 })
        #expect(hooks(test).last == "Billing stop")
        #expect(test.host.status.isFinal)
    }

    @Test func aStopHookThatFailsAtTheEndOfTheScopeIsTheTestsError() async throws {
        let error = await #expect(throws: TestHostError.self) {
            try await withTestHost([ModuleDescriptor(name: "Billing") { Probe(failsIn: .stop) }]) { _ in }
        }
        #expect(error?.failures.map { "\($0.module) \($0.phase)" } == ["Billing stop"])
        #expect(error?.description.contains("Billing stop: failed") == true)
        #expect(error?.description.contains("told to fail in stop") == true)
    }

    @Test func aRunThatDoesNotDrainFailsTheTestWithinTheLimitTheTestSets() async throws {
        // The host's own warning names the limit it applied: the test's,
        // not the test host's 5 seconds or the library's 30. (Read from the
        // log, not from a clock: on a busy pool a wall-clock bound fails
        // whatever limit was applied.)
        let log = LogRecorder()
        let error = await #expect(throws: TestHostError.self) {
            try await withTestHost(
                [ModuleDescriptor(name: "Ticker") { Probe(run: { _ in try await Task.sleep(for: .seconds(3600)) }) }],
                configuration: {
                    $0.drainTimeLimit = .milliseconds(100)
                    $0.log = log.handler(logLevel: .warning)
                }
            ) { _ in }
        }
        let warning = log.lines.first { $0.module == "Ticker" && $0.level == .warning }
        #expect(warning?.message.contains("did not finish its run within the drain limit (0.1 seconds)") == true, "\(log.lines)")
        #expect(error?.failures.map { "\($0.module) \($0.phase)" } == ["Ticker run"])
        guard case .timedOut = error?.failures.first?.result else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func aShutdownTheTestAskedForIsTheTestsToJudge() async throws {
        try await withTestHost(
            [ModuleDescriptor(name: "Ticker") { Probe(run: { _ in try await Task.sleep(for: .seconds(3600)) }) }],
            configuration: { $0.drainTimeLimit = .milliseconds(100) }
        ) { test in
            let outcomes = await test.stop()
            #expect(outcomes.map { "\($0.module) \($0.phase) \($0.isFailure)" } == ["Ticker run true", "Ticker stop false"])
            #expect(test.log.lines.contains { $0.isFromHost && $0.level == .warning && $0.message.contains("did not finish its run within the drain limit") })
            #expect(test.host.stopReason == .terminate)
            #expect(await test.stop().map(\.description) == outcomes.map(\.description), "a second stop returns the same")
        }
    }

    @Test func drainEndsOneRunAndLeavesItsModuleStartedUntilTheStop() async throws {
        try await withTestHost([
            ModuleDescriptor(name: "Storage", level: .service) { Probe() },
            ModuleDescriptor(name: "Ticker") { Probe() },
        ]) { test in
            let drained = try await test.drain("Ticker")
            #expect("\(drained)".hasPrefix("Ticker run: completed"))
            #expect(await test.host.runningModules == ["Storage", "Ticker"])
            #expect(!hooks(test).contains("Ticker stop"))
            let again = await #expect(throws: TestHostError.self) { try await test.drain("Ticker") }
            #expect(again?.description.contains("module 'Ticker' has no run going") == true)
        }
    }

    @Test func drainOfAModuleNotStartedSaysWhichAre() async throws {
        try await withTestHost([ModuleDescriptor(name: "Ticker") { Probe() }]) { test in
            let error = await #expect(throws: TestHostError.self) { try await test.drain("Tickr") }
            #expect(error?.description == #"drain("Tickr"): no started module has that name (started: Ticker)"#)
            await test.stop()
            let afterStop = await #expect(throws: TestHostError.self) { try await test.drain("Ticker") }
            #expect(afterStop?.description == #"drain("Ticker"): no started module has that name (started: none: the host has stopped)"#)
        }
    }

    @Test func aDrainHeldToItsLimitIsWarnedAboutAsOneRunNotTheShutdown() async throws {
        try await withTestHost([ModuleDescriptor(name: "Ticker") { Probe(run: { _ in try await Task.sleep(for: .seconds(3600)) }) }],
                               configuration: { $0.drainTimeLimit = .milliseconds(50) }) { test in
            _ = try await test.drain("Ticker")
            let warning = try #require(test.log.lines.first { $0.isFromHost && $0.level == .warning })
            #expect(warning.message.contains("after it was asked to: it is cancelled. A run that ends by cancellation says so"), "\(warning)")
            #expect("\(test.host.status)" == "running")
        }
    }

    @Test func aRunThatFailsWhenDrainedIsReturnedAndNotThrownAgain() async throws {
        try await withTestHost([
            ModuleDescriptor(name: "Ticker") { Probe(run: { context in
                let (drained, drain) = AsyncStream.makeStream(of: Void.self)
                await context.withDrainHandler { for await _ in drained {} } onDrain: { drain.finish() }
                throw Failure(phase: .run)
            }) },
        ]) { test in
            let drained = try await test.drain("Ticker")
            guard case .failed(let error) = drained.result else { Issue.record("\(drained)"); return }
            #expect(error is Failure)
        }
    }

    @Test func aFakeIsThereBeforeTheFirstSetUpAndAModuleRegisteringItToo() async throws {
        let seen = Mutex<String?>(nil)
        try await withTestHost(
            [ModuleDescriptor(name: "Billing", level: .core) { Probe(setUp: { context in
                seen.withLock { $0 = try? context.service(String.self) }
            }) }],
            fakes: { try $0.register(String.self) { "fake" } }
        ) { _ in }
        #expect(seen.withLock { $0 } == "fake")

        let error = await #expect(throws: HostError.self) {
            try await withTestHost(
                [ModuleDescriptor(name: "Billing") { Probe(setUp: { try $0.register(String.self) { "real" } }) }],
                fakes: { try $0.register(String.self) { "fake" } }
            ) { _ in }
        }
        #expect(error.map { "\($0)" }?.contains("'test'") == true, "the duplicate names the test's fake: \(String(describing: error))")
    }

    @Test func theConfigurationIsTheTestsNotTheProcesss() async throws {
        let read = Mutex<(arguments: [String], environment: [String: String])?>(nil)
        try await withTestHost(
            [ModuleDescriptor(name: "Billing") { Probe(setUp: { context in
                read.withLock { $0 = (context.arguments, context.environment) }
                context.log("rate", level: .debug, metadata: ["currency": "EUR"])
                context.log("detail", level: .trace)
            }) }],
            configuration: { $0.environment = ["CURRENCY": "EUR"] }
        ) { test in
            let line = test.log.lines(of: "Billing").first { $0.message == "rate" }
            #expect(line?.level == .debug)
            #expect(line?.metadata == ["currency": "EUR", "module": "Billing"])
            #expect(line?.description == "DEBUG rate currency=EUR module=Billing")
            #expect(!test.log.lines.contains { $0.message == "detail" }, "trace is below the test host's level")
        }
        #expect(read.withLock { $0?.arguments } == [])
        #expect(read.withLock { $0?.environment } == ["CURRENCY": "EUR"])
    }

    @Test func theBodyRunsOnceARunThatReportsReadinessHas() async throws {
        struct Server: AppModule {
            var runReportsReady: Bool { true }
            func run(_ context: ModuleContext) async throws {
                try await Task.sleep(for: .milliseconds(50))
                context.log("bound")
                context.reportReady()
                try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
            }
        }
        try await withTestHost([ModuleDescriptor(name: "HTTP") { Server() }]) { test in
            #expect(test.log.lines(of: "HTTP").map(\.message) == ["bound"])
            #expect("\(test.host.status)" == "running")
        }
    }

    @Test func aFakeHandlerAnswersBeforeEveryModule() async throws {
        struct Quote: ModuleEvent {
            typealias Reply = Int
        }
        try await withTestHost(
            [ModuleDescriptor(name: "Pricing", level: .core) { Probe(setUp: { $0.on(Quote.self) { _ in 12 } }) }],
            fakes: { $0.on(Quote.self) { _ in 7 } }
        ) { test in
            let report = await test.host.broadcast(Quote())
            #expect(report.replies.map { "\($0.module) \($0.reply)" } == ["test 7", "Pricing 12"])
        }
    }
}
