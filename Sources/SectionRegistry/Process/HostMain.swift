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
            do {
                try await host.run()
            } catch where !host.status.isFinal {
                end(ProgramEnd(status: 1, message: "\(error)"))  // signals in use: nothing launched
            } catch {
                // A failed launch or run: the final status says it.
            }
            end(ProgramEnd(of: .service, final: host.status, stopReason: host.stopReason, failedRun: await host.failedRunError()))
        } catch {
            end(ProgramEnd(status: 1, message: "\(error)"))
        }
    }

    /// Flushes standard output, writes the message to standard error in one
    /// write, and exits with the status.
    static func end(_ program: ProgramEnd) -> Never {
        fflush(nil)
        if let message = program.message {
            let line = Array((message + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        exit(program.status)
    }
}
