#if canImport(Glibc)
import Glibc
#endif

extension ModuleHost {
    /// The whole `main` of a program made of linked modules: discovers them,
    /// launches them, serves signals (see ``run()``), stops them, and ends
    /// the process.
    ///
    /// ```swift
    /// import SectionRegistry
    /// await ModuleHost.main()
    /// ```
    ///
    /// A bad build or configuration never crashes the process: a
    /// ``RegistryError`` or a ``HostError`` is written to standard error as
    /// one message, without a backtrace. Standard output is flushed first.
    /// The exit status says how the program ended:
    ///
    /// - 0: stopped by SIGTERM, SIGINT, cancellation or a module's
    ///   `terminate()`, every `run` ended and every stop hook completed.
    /// - 1: launch failed (nothing is left running), or a module's
    ///   ``AppModule/run(_:)`` failed and every module was stopped; the
    ///   message names the module and the error.
    /// - 2: bad usage, left to the program's own argument parsing, which
    ///   runs before this.
    /// - 3: stopped, but not cleanly: a stop hook failed, timed out, was cut
    ///   off or skipped, a draining `run` had to be cancelled past
    ///   ``HostConfiguration/drainTimeLimit``, or a `run` ignored its
    ///   cancellation. The last log line names each.
    public static func main(configuration: HostConfiguration = HostConfiguration()) async -> Never {
        var configuration = configuration
        configuration.logsLaunchFailure = false  // said once, below
        do {
            let host = ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration)
            try await host.run()
            switch host.status {
            case .stopped(let failures) where failures.isEmpty:
                let stopped = await host.shutdownOutcomes.map(\.module).joined(separator: ", ")
                host.shared.log(.info, "SectionRegistry: stopped: \(stopped)")
                end(status: 0)
            case .launchFailed(let cancelled) where !cancelled.rollback.contains(where: \.isFailure):
                end(status: 0)  // SIGTERM during launch; what started stopped cleanly
            default:
                end(status: 3)
            }
        } catch {
            end(status: 1, message: "\(error)")
        }
    }

    /// Flushes standard output, writes `message` to standard error in one
    /// write, and exits.
    static func end(status: Int32, message: String? = nil) -> Never {
        fflush(nil)
        if let message {
            let line = Array((message + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        exit(status)
    }
}
