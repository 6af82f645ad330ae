/// Runs `body`, and calls `expire` once if `deadline` passes before `body`
/// returns; at once if it has passed already. The one timer of a wait that
/// has a deadline (the lame-duck delay, the intake step, the drain, the
/// cancellations after it): a child task of the caller, so cancelled when
/// `body` returns or the caller is.
func withTimer<T: Sendable>(
    until deadline: ContinuousClock.Instant, onExpiry expire: @escaping @Sendable () -> Void, _ body: () async -> T
) async -> T {
    guard ContinuousClock.now < deadline else {
        expire()
        return await body()
    }
    return await withTaskGroup(of: Void.self) { group in
        group.addTask {
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            expire()
        }
        defer { group.cancelAll() }
        return await body()
    }
}
