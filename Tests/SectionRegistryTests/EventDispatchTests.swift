import Foundation
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

struct Ping: ModuleEvent {
    typealias Reply = String
    let payload: Int
}

struct MustAllSucceed: ModuleEvent {
    static var stopsAtFailure: Bool { true }
}

struct Quick: ModuleEvent {
    typealias Reply = Int
    // Wide against the 10 ms answer that must make it: with the whole suite
    // and its builds on two cores, 100 ms was once too short.
    static var answerTimeLimit: Duration? { .seconds(1) }
}

/// Broadcast, first handler wins, gathered answers exactly once, and custom
/// typed events, all through one dispatcher.
@Suite struct EventDispatchTests {
    let journal = Journal()

    func host(_ handlers: [(String, @Sendable (ModuleContext) throws -> Void)]) async throws -> ModuleHost {
        let modules = handlers.map { name, register in scripted(name, journal: journal) { $0.onSetUp = register } }
        let host = ModuleHost(registry: try declare(modules), configuration: testConfiguration())
        try await host.launch()
        return host
    }

    @Test func broadcastReachesEveryHandlerInStartOrderDespiteAFailure() async throws {
        let host = try await host([
            ("C", { $0.on(Ping.self) { "C got \($0.payload)" } }),
            ("A", { $0.on(Ping.self) { _ in throw ScriptError(module: "A", phase: .start) } }),
            ("B", { $0.on(Ping.self) { _ in nil } }),
            ("Silent", { _ in }),
        ])
        let report = await host.broadcast(Ping(payload: 7))
        #expect(report.answers.map(\.module) == ["A", "B", "C"])
        #expect(report.replies.map(\.module) == ["C"])
        #expect(report.replies.map(\.reply) == ["C got 7"])
        #expect(report.failures.map(\.module) == ["A"])
        #expect(report.notReached.isEmpty)
        if case .declined = report.answers[1].outcome {} else { Issue.record("B declined: \(report.answers[1].outcome)") }
    }

    @Test func anEventCanSayAFailureStopsTheBroadcast() async throws {
        let host = try await host([
            ("A", { $0.on(MustAllSucceed.self) { _ in } }),
            ("B", { $0.on(MustAllSucceed.self) { _ in throw ScriptError(module: "B", phase: .start) } }),
            ("C", { $0.on(MustAllSucceed.self) { _ in } }),
        ])
        let report = await host.broadcast(MustAllSucceed())
        #expect(report.answers.map(\.module) == ["A", "B"])
        #expect(report.notReached == ["C"])
    }

    @Test func firstHandlerWinsAndSaysWhich() async throws {
        let host = try await host([
            ("A", { $0.on(Ping.self) { _ in nil } }),
            ("B", { $0.on(Ping.self) { _ in throw ScriptError(module: "B", phase: .start) } }),
            ("C", { $0.on(Ping.self) { "C:\($0.payload)" } }),
            ("D", { $0.on(Ping.self) { _ in "D" } }),
        ])
        let report = await host.firstHandler(for: Ping(payload: 1))
        let (module, reply) = try #require(report.firstReply)
        #expect(module == "C")
        #expect(reply == "C:1")
        #expect(report.answers.map(\.module) == ["A", "B", "C"])
        #expect(report.failures.map(\.module) == ["B"])
        #expect(report.notReached == ["D"])
    }

    @Test func whenNobodyHandlesItTheAnswerIsUnhandled() async throws {
        let host = try await host([
            ("A", { $0.on(Ping.self) { _ in nil } }),
            ("B", { $0.on(Ping.self) { _ in nil } }),
        ])
        let report = await host.firstHandler(for: Ping(payload: 1))
        #expect(report.firstReply == nil, "reported as handled although every module declined")
        #expect(report.answers.map(\.module) == ["A", "B"])
    }

    /// Handlers that cannot suspend are called in the dispatch's own loop,
    /// the others awaited one at a time: mixed, they answer in start order,
    /// and a first-handler dispatch stops at the first reply, of either kind.
    @Test func handlersThatSuspendAndHandlersThatCannotAnswerInStartOrder() async throws {
        let host = try await host([
            ("A", { $0.on(Ping.self) { _ in nil } }),
            ("B", { $0.on(Ping.self) { _ in await Task.yield(); return nil } }),
            ("C", { $0.on(Ping.self) { _, responder in responder.decline() } }),
            ("D", { $0.on(Ping.self) { "D:\($0.payload)" } }),
            ("E", { $0.on(Ping.self) { _ in await Task.yield(); return "E" } }),
            ("F", { $0.on(Ping.self) { _ in throw ScriptError(module: "F", phase: .start) } }),
        ])
        let broadcast = await host.broadcast(Ping(payload: 3))
        #expect(broadcast.answers.map(\.module) == ["A", "B", "C", "D", "E", "F"])
        #expect(broadcast.replies.map(\.reply) == ["D:3", "E"])
        #expect(broadcast.failures.map(\.module) == ["F"])
        let report = await host.firstHandler(for: Ping(payload: 4))
        let (module, reply) = try #require(report.firstReply)
        #expect(module == "D")
        #expect(reply == "D:4")
        #expect(report.notReached == ["E", "F"])
    }

    @Test func gatherMergesAnswersOnceIgnoringASecondAnswerAndTimingOutAMissingOne() async throws {
        let answeredTwice = OneShot<Void>()
        let host = try await host([
            ("Direct", { $0.on(Quick.self) { _ in 1 } }),
            ("Twice", {
                $0.on(Quick.self) { _, responder in
                    responder.respond(2)
                    responder.respond(20)
                    answeredTwice.fulfil(())
                }
            }),
            ("Never", { $0.on(Quick.self) { _, _ in } }),
            ("Later", {
                $0.on(Quick.self) { _, responder in
                    // A thread of its own, not a task: with the suite's
                    // builds blocking both threads of the cooperative pool,
                    // a task's 10 ms sleep once ended after the time limit.
                    Thread.detachNewThread {
                        usleep(10_000)
                        responder.respond(4)
                    }
                }
            }),
        ])
        let report = await host.gather(Quick())
        // Answers come in start order, which among equals is by name.
        #expect(report.answers.map(\.module) == ["Direct", "Later", "Never", "Twice"])
        #expect(report.replies.map(\.reply) == [1, 4, 2])
        if case .timedOut = report.answers[2].outcome {} else { Issue.record("Never: \(report.answers[2].outcome)") }
        _ = await answeredTwice.value(within: .seconds(10))
        #expect(report.ignoredAnswers(of: "Twice") == 1)
        #expect(report.ignoredAnswers(of: "Direct") == 0)
    }

    @Test func anAnswerAfterTheTimeLimitIsIgnoredAndCounted() async throws {
        let late = OneShot<EventResponder<Int>>()
        let host = try await host([("Slow", { $0.on(Quick.self) { _, responder in late.fulfil(responder) } })])
        let report = await host.gather(Quick())
        if case .timedOut = report.answers[0].outcome {} else { Issue.record("\(report.answers[0].outcome)") }
        let responder = try #require(await late.value(within: .seconds(10)))
        responder.respond(9)
        #expect(report.ignoredAnswers(of: "Slow") == 1)
        #expect(report.replies.isEmpty)
    }

    @Test func aHandlerThatHangsCannotHoldUpGather() async throws {
        let host = try await host([
            ("Hung", { $0.on(Quick.self) { _ in while true { await sleepIgnoringCancellation(.seconds(60)) } } }),
            ("Fine", { $0.on(Quick.self) { _ in 5 } }),
        ])
        let report = await host.gather(Quick())
        #expect(report.answers.map(\.module) == ["Fine", "Hung"])
        #expect(report.replies.map(\.module) == ["Fine"])
        if case .timedOut = report.answers[1].outcome {} else { Issue.record("\(report.answers[1].outcome)") }
    }

    @Test func eventTimingsAreRecordedWhenAskedFor() async throws {
        let modules = [scripted("A", journal: journal) { $0.onSetUp = { $0.on(Ping.self) { _ in "a" } } }]
        let host = ModuleHost(registry: try declare(modules), configuration: testConfiguration { $0.timesEventHandlers = true })
        try await host.launch()
        _ = await host.broadcast(Ping(payload: 1))
        _ = await host.broadcast(Ping(payload: 2))
        let events = await host.timings.events
        #expect(events.map(\.module) == ["A"])
        #expect(events.map(\.count) == [2])
        #expect(events[0].event.hasSuffix("Ping"))
    }
}
