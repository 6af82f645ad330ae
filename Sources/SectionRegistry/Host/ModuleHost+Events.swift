// The three ways a host dispatches an event. They are inlinable so that they
// are specialized for the app's event types, and they record only each
// module's outcome: see scripts/bench.sh for what a broadcast costs against a
// hand-written loop.

extension ModuleHost {
    /// Sends `event` to every module that handles it, one after the other in
    /// start order, each handler awaited. A failing handler is reported and
    /// the others still get the event, unless the event
    /// ``ModuleEvent/stopsAtFailure``.
    @inlinable
    public nonisolated func broadcast<Event: ModuleEvent>(_ event: Event) async -> DispatchReport<Event.Reply> {
        await askInTurn(event) { answer in
            if case .failed = answer { Event.stopsAtFailure } else { false }
        }
    }

    /// Offers `event` to the modules that handle it, in start order, until
    /// one handles it: the open-URL case. The report's
    /// ``DispatchReport/firstReply`` says which module handled it, or is
    /// `nil` when none did.
    ///
    /// ```swift
    /// if let (module, reply) = await host.firstHandler(for: OpenPath(path)).firstReply { ... }
    /// ```
    @inlinable
    public nonisolated func firstHandler<Event: ModuleEvent>(for event: Event) async -> DispatchReport<Event.Reply> {
        await askInTurn(event) { if case .handled = $0 { true } else { false } }
    }

    /// Asks the modules one after the other until `stopsAfter` says so: the
    /// one path of ``broadcast(_:)`` and ``firstHandler(for:)``.
    ///
    /// A handler that cannot suspend is called right in this loop, with no
    /// async frame between the dispatch and the module's code, unless the
    /// host times handlers.
    @inlinable
    nonisolated func askInTurn<Event: ModuleEvent>(
        _ event: Event, stopsAfter: (DispatchReport<Event.Reply>.Answer) -> Bool
    ) async -> DispatchReport<Event.Reply> {
        let (handlers, modules) = shared.handlers.handlers(for: Event.self)
        let timeLimit = Event.answerTimeLimit ?? configuration.answerTimeLimit
        let timings = shared.eventTimings
        var report = DispatchReport<Event.Reply>(modules: modules)
        var index = 0
        while index < handlers.count {
            if timings == nil {
                let run = report.askNow(handlers, from: index, event, stopsAfter: stopsAfter)
                guard !run.stopped, run.next < handlers.count else { break }
                index = run.next
            }
            let answer = await handlers[index].answer(event, timeLimit: timeLimit, inline: true, timings: timings)
            report.append(answer.outcome, settlement: answer.settlement)
            index += 1
            if stopsAfter(report.asked[report.asked.count - 1]) { break }
        }
        return report
    }

    /// Asks every module that handles `event` at once and returns their
    /// answers merged into one report, once: after every module answered
    /// or its time limit (``ModuleEvent/answerTimeLimit``, else
    /// ``HostConfiguration/answerTimeLimit``) was up. A second answer from
    /// one module is ignored and counted; a missing one is
    /// ``EventOutcome/timedOut``.
    @inlinable
    public nonisolated func gather<Event: ModuleEvent>(_ event: Event) async -> DispatchReport<Event.Reply> {
        let (handlers, modules) = shared.handlers.handlers(for: Event.self)
        let timeLimit = Event.answerTimeLimit ?? configuration.answerTimeLimit
        let timings = shared.eventTimings
        let answers = await withTaskGroup(of: (Int, HandlerAnswer<Event.Reply>).self) { group in
            for (index, handler) in handlers.enumerated() {
                group.addTask { (index, await handler.answer(event, timeLimit: timeLimit, inline: false, timings: timings)) }
            }
            var answers = [HandlerAnswer<Event.Reply>?](repeating: nil, count: handlers.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers.map { $0! }
        }
        var report = DispatchReport<Event.Reply>(modules: modules)
        for answer in answers { report.append(answer.outcome, settlement: answer.settlement) }
        return report
    }
}

extension DispatchReport {
    /// Asks the handlers from `start` on that cannot suspend, in turn, up to
    /// the first that can, or until `stopsAfter` says so.
    ///
    /// Synchronous, so that each handler is read by index and called as a
    /// plain function: nothing is kept in an async frame between one module
    /// and the next.
    ///
    /// - Returns: the index of the first handler not asked, and whether
    ///   `stopsAfter` stopped the run.
    @inlinable
    mutating func askNow<Event>(
        _ handlers: [EventHandler<Event, Reply>], from start: Int, _ event: Event, stopsAfter: (Answer) -> Bool
    ) -> (next: Int, stopped: Bool) {
        var index = start
        while index < handlers.count {
            if !handlers[index].life.isAlive {
                asked.append(.stopped)
            } else {
                do {
                    switch handlers[index].body {
                    case .replyingNow(let handle):
                        append(reply: try handle(event))
                    case .direct, .deferred:
                        return (index, false)
                    }
                } catch {
                    append(failure: error)
                }
            }
            index += 1
            if stopsAfter(asked[asked.count - 1]) { return (index, true) }
        }
        return (index, false)
    }
}
