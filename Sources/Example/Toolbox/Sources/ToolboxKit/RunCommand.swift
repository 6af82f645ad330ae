import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ParsableCommand {
    /// Parses `arguments` and runs the command they name, as
    /// `main()` does, but returns the exit status instead of exiting:
    /// the host then stops the modules before the process ends.
    public static func run(_ arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch is CancellationError {
            return 1  // SIGINT or SIGTERM: the host exits 130 or 143, quietly
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success { print(message) } else { FileHandle.standardError(message) }
            }
            return code.rawValue
        }
    }
}

private enum FileHandle {
    static func standardError(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
