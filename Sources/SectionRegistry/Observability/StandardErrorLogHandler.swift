#if canImport(Glibc)
import Glibc
#endif

/// The default ``HostLogHandler``: one line per message on standard error,
/// `LEVEL message key=value ...`, metadata sorted by key.
public struct StandardErrorLogHandler: HostLogHandler {
    /// The environment variable that sets the default level: one of
    /// `trace`, `debug`, `info` (when unset or not a level), `notice`,
    /// `warning`, `error`, `critical`. Read with `secure_getenv`
    /// (``environmentLevel``): a privileged process ignores it.
    public static let levelVariable = "SECTION_REGISTRY_LOG_LEVEL"

    public var logLevel: LogLevel

    /// A handler at `logLevel`, by default ``environmentLevel``.
    public init(logLevel: LogLevel = Self.environmentLevel) {
        self.logLevel = logLevel
    }

    /// The level ``levelVariable`` names in the process's environment, or
    /// `info`. Read with glibc's `secure_getenv`, so `info` in a privileged
    /// process (set-user-ID, set-group-ID, file capabilities), whose invoker
    /// must not choose what it logs (debug messages can show more than the
    /// invoker may see).
    public static var environmentLevel: LogLevel {
        level(named: HostVariable.secureValue(levelVariable))
    }

    /// The level ``levelVariable`` names in `environment`, or `info`.
    public static func level(in environment: [String: String]) -> LogLevel {
        level(named: environment[levelVariable])
    }

    private static func level(named name: String?) -> LogLevel {
        name.flatMap { LogLevel(rawValue: $0.lowercased()) } ?? .info
    }

    public func log(level: LogLevel, message: String, metadata: [String: String]) {
        // One write per line, so that lines of concurrent tasks do not mix.
        let bytes = Array(Self.line(level: level, message: message, metadata: metadata).utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The line written for one message, with its newline.
    static func line(level: LogLevel, message: String, metadata: [String: String]) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "\(level.rawValue.uppercased()) \(message)\(fields)\n"
    }
}
