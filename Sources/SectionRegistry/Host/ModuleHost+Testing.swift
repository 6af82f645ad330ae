/// What SectionRegistryTesting needs of a host beyond its public API: a
/// context for the test itself, one `run` drained alone, and the outcomes of
/// a shutdown whoever began it.
extension ModuleHost {
    /// A context for the code that drives this host rather than for one of
    /// its modules: what it registers is there before the first module's
    /// setUp (a fake of a service), its lookups see every module's services,
    /// and its event handlers come before every module's. It is never
    /// stopped, so what it registers stays for the host's life.
    package nonisolated func makeDriverContext(named name: String) -> ModuleContext {
        ModuleContext(moduleName: name, rank: -1, host: shared)
    }

    /// Asks the `run` of the started module `name`, alone, to drain, as the
    /// shutdown would (``HostConfiguration/drainTimeLimit``, then cancelled
    /// within ``HostConfiguration/stopTimeLimit``), and waits until it has
    /// ended. Its module stays started: its stop hook runs at the shutdown.
    /// Takes its turn, as ``remove(_:)`` does.
    ///
    /// - Returns: how the `run` ended (completed, failed, timed out, cut
    ///   off), or `nil` if the module has no `run` going (none written, or
    ///   it has ended already).
    /// - Throws: ``HostError/Code/notRunning`` if `name` is not started.
    package func drainRun(of name: String) async throws(HostError) -> HookOutcome? {
        try await perform(.remove, "drain(\"\(name)\")", refused: { .failure($0) }) { host, _ in await host.drainRunNow(name) }.get()
    }

    private func drainRunNow(_ name: String) async -> Result<HookOutcome?, HostError> {
        guard case .running(let roster) = lifecycle, let module = roster.started.first(where: { $0.name == name }) else {
            return .failure(.notRunning(name))
        }
        guard let run = runs.withLock({ $0.first { $0.module.life === module.life } }), !run.hasEnded else { return .success(nil) }
        let ending = await withSpan("drain", root: true, modules: [name]) { await endRuns(of: [module], alone: true) }
        return .success(ending.outcomes().first ?? run.drainedOutcome(since: ending.drainStart))
    }

    /// What the shutdown did, once the host has stopped, whoever began it:
    /// the `run`s that failed while the host ran, then each stop hook's
    /// outcome and each `run` that did not end cleanly.
    package var shutdownReport: [HookOutcome] {
        failedRuns.withLock { $0 } + shutdownOutcomes
    }
}
