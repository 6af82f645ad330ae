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
    private let result = OneShot<Result<Int32, any Error>>()
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
                do { result.fulfil(.success(try await work())) } catch { result.fulfil(.failure(error)) }
                returned.done("work")
            }
            state.task = task
            if state.ended { task.cancel() }  // the shutdown came first
        }
        return await result.value()
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
