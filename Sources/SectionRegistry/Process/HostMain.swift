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
    /// The exit status says how the program ended: 0 stopped cleanly (by a
    /// signal, cancellation, ``terminate()`` or a module's
    /// ``ModuleContext/requestShutdown()``), 1 launch failed or a `run`
    /// failed, 3 stopped but not cleanly. The one table for both entry
    /// points, and why they differ on a signal: <doc:Lifecycle#Exit-statuses>.
    public static func main(configuration: HostConfiguration = HostConfiguration()) async -> Never {
        var configuration = configuration
        configuration.logsLaunchFailure = false  // said once, below
        do {
            let host = ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration)
            try await host.run()
            if case .stopped(let failures) = host.status, failures.isEmpty {
                let stopped = await host.shutdownOutcomes.map(\.module).joined(separator: ", ")
                host.shared.log(.info, "SectionRegistry: stopped: \(stopped)")
            }
            end(status: exitStatus(after: host.status))
        } catch {
            end(status: 1, message: "\(error)")
        }
    }

    /// The exit status of ``main(configuration:)`` once ``run()`` returned
    /// without an error: 0 stopped cleanly, 3 not.
    static func exitStatus(after status: HostStatus) -> Int32 {
        switch status {
        case .stopped(let failures) where failures.isEmpty:
            0
        case .launchFailed(let cancelled) where !cancelled.rollback.contains(where: \.isFailure):
            0  // SIGTERM during launch; what started stopped cleanly
        default:
            3
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
