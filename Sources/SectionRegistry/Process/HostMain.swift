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
    /// ``RegistryError`` or a ``HostError`` is
    /// written to standard error as one message, without a backtrace, and
    /// the process exits with status 1. After a graceful stop (SIGTERM or
    /// SIGINT) it logs the modules stopped, in order, and exits with status
    /// 0. Standard output is flushed first in both cases. Status 2, bad usage, is left to the program's own
    /// argument parsing, which runs before this.
    public static func main(configuration: HostConfiguration = HostConfiguration()) async -> Never {
        do {
            let host = ModuleHost(registry: try ModuleRegistry.linked(), configuration: configuration, logsLaunchFailure: false)
            let stopped = try await host.run()
            host.shared.log(.info, "SectionRegistry: stopped: \(stopped.map(\.module).joined(separator: ", "))")
            end(status: 0)
        } catch {
            end(status: 1, message: "\(error)")
        }
    }

    /// Flushes standard output, writes `message` to standard error in one
    /// write, and exits.
    private static func end(status: Int32, message: String? = nil) -> Never {
        fflush(nil)
        if let message {
            let line = Array((message + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        exit(status)
    }
}
