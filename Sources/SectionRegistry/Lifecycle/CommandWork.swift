/// The one piece of work of ``ModuleHost/main(configuration:_:)``.
///
/// The work runs in a task of its own, not a child task, for the reason
/// ``PhaseRun`` gives: work that ignores its cancellation must be left
/// behind, so that Ctrl-C still ends the program, and a child task cannot
/// be. It ends when it returns, or when the host's shutdown ends it
/// (``end()``): cancelled, and given its limit.
final class CommandWork: Sendable {
    private let limit: Duration
    /// The work's task once made; whether the shutdown ended it already.
    private let state = Locked<(task: Task<Void, Never>?, ended: Bool)>((nil, false))
    /// Not a `OneShot<Result<Int32, any Error>>`: making that class's
    /// metadata checks `any Error: Error`, a search of every loaded image's
    /// conformance records (about 0.19 M instructions) that a tool paid at
    /// each invocation.
    private let result = OneShot<WorkEnd>()
    /// Done once the work has returned or thrown: what ``end()`` waits for.
    private let returned = ShutdownStep(waitingFor: ["work"])

    init(within limit: Duration) {
        self.limit = limit
    }

    /// Runs `work` until it ends.
    ///
    /// - Returns: what `work` returned or threw; `nil` if the shutdown left
    ///   it behind.
    func run(_ work: @escaping @Sendable () async throws -> Int32) async -> Result<Int32, any Error>? {
        state.withLock { state in
            let task = Task { [result, returned] in
                do { result.fulfil(.returned(try await work())) } catch { result.fulfil(.threw(error)) }
                returned.done("work")
            }
            state.task = task
            if state.ended { task.cancel() }  // the shutdown came first
        }
        switch await result.value() {
        case .returned(let status): return .success(status)
        case .threw(let error): return .failure(error)
        case nil: return nil
        }
    }

    /// Cancels the work and waits until it ends, its limit passes, or the
    /// calling task (the shutdown) is cancelled.
    ///
    /// - Returns: whether it ended; if not, it is left behind.
    func end() async -> Bool {
        state.withLock { state in
            state.ended = true
            return state.task
        }?.cancel()
        guard await !ShutdownWatch.until(.now + limit, returned.wait).isEmpty else { return true }
        result.expire()
        return false
    }
}

/// How the work ended.
private enum WorkEnd: Sendable {
    case returned(Int32)
    case threw(any Error)
}
