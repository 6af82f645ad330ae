// Under the `Configuration` trait, what `run()` does with the program's
// configuration while the modules live (Configuration.md): it runs the
// providers that are services and turns each change into a reload.
#if Configuration
#if canImport(Glibc)
import Glibc
#endif
import Configuration
import ServiceLifecycle
import ServiceLifecycleTestKit

extension ModuleHost {
    /// Runs `body` while the configuration is watched: each provider that
    /// is a `Service` (a `ReloadingFileProvider`) runs from before `body`
    /// (the launch, so before the first `setUp`) until it returns (the last
    /// module stopped), as child tasks; each change of the configuration
    /// after the first snapshot calls the modules' reload hooks, as SIGHUP
    /// does.
    nonisolated func watchingConfiguration<Result: Sendable>(_ body: () async -> Result) async -> Result {
        let source = shared.config
        return await withTaskGroup(of: Void.self) { group in
            for service in source.services {
                group.addTask {
                    do {
                        // A graceful-shutdown scope of its own: a ServiceGroup
                        // that runs the host shuts the provider down only
                        // when the host is done, by this task's cancellation.
                        try await testGracefulShutdown { _ in try await service.run() }
                    } catch where !(error is CancellationError) {
                        self.shared.log(.warning, "SectionRegistry: configuration provider \(type(of: service)) stopped: \(error); "
                            + "its later changes are not read")
                    } catch {}
                }
            }
            group.addTask {
                try? await source.reader.watchSnapshot { updates in
                    var first = true
                    for await _ in updates {
                        // The first snapshot is the one the launch reads.
                        if first { first = false } else { self.requestReload(because: "the configuration changed") }
                    }
                }
            }
            defer { group.cancelAll() }
            // A provider that takes SIGHUP (a ReloadingFileProvider) and the
            // host both hear it from before the first setUp.
            if configuration.servesSignals && configurationTakesSIGHUP { await SignalStream.shareOnceTaken(SIGHUP) }
            return await body()
        }
    }

    /// Whether a configuration provider the host runs takes SIGHUP too (a
    /// `ReloadingFileProvider` checks its file at each one): then the host
    /// does not warn when it finds that provider's handler beside its own.
    nonisolated var configurationTakesSIGHUP: Bool { !shared.config.services.isEmpty }
}
#endif
