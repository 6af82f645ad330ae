#if canImport(Glibc)
import Glibc
#endif

/// Where a host's messages and its modules' ``ModuleContext/log(_:level:metadata:)``
/// lines go: a level and a closure, the shape of swift-log's `LogHandler`
/// cut to what the host needs, so that a bridge to swift-log is a few lines
/// (see <doc:Lifecycle#Logging>).
///
/// ```swift
/// configuration.log = HostLogHandler(logLevel: .debug) { level, message, metadata in print(message) }
/// ```
///
/// Every message of the host goes through it: launch steps and each hook's
/// duration at ``LogLevel/debug``, SIGHUP and the user signals at
/// ``LogLevel/info``, SIGTERM, SIGINT and a module's request for the
/// shutdown at ``LogLevel/notice``, hooks slower
/// than ``HostConfiguration/slowHookThreshold`` and time limits hit at
/// ``LogLevel/warning``, failures at ``LogLevel/error``. Metadata names the
/// `module`, the `phase` and the `duration` (in milliseconds) where they
/// apply. The default, ``standardError(logLevel:timestamps:)``, writes lines to
/// standard error.
public struct HostLogHandler: Sendable {
    /// Messages below this level are neither built nor passed on.
    public var logLevel: LogLevel
    private let body: @Sendable (LogLevel, String, [String: String]) -> Void

    /// Passes every message at `logLevel` or above to `body`, from any
    /// task, possibly concurrently.
    public init(
        logLevel: LogLevel = .info,
        _ body: @escaping @Sendable (_ level: LogLevel, _ message: String, _ metadata: [String: String]) -> Void
    ) {
        self.logLevel = logLevel
        self.body = body
    }

    /// Writes one message.
    func log(level: LogLevel, message: String, metadata: [String: String]) {
        body(level, message, metadata)
    }

    /// One line per message on standard error, `LEVEL message key=value ...`,
    /// metadata sorted by key; at `logLevel`, by default
    /// ``environmentLevel``. With `timestamps`, each line begins with the
    /// time it was written, UTC to the millisecond
    /// (`2026-11-29T13:58:01.123Z INFO ...`): what a log read outside a
    /// journal, which stamps lines itself, needs.
    public static func standardError(logLevel: LogLevel = environmentLevel, timestamps: Bool = false) -> HostLogHandler {
        var handler = HostLogHandler(logLevel: logLevel) { level, message, metadata in
            // One write per line, so that lines of concurrent tasks do not mix.
            let stamp = timestamps ? timestamp() + " " : ""
            let bytes = Array((stamp + line(level: level, message: message, metadata: metadata)).utf8)
            _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        handler.writesStandardError = true
        return handler
    }

    /// Whether this is ``standardError(logLevel:timestamps:)``'s handler:
    /// the one a configuration's `sectionRegistry.logTimestamps` can turn
    /// timestamps on in.
    var writesStandardError = false

    /// The line ``standardError(logLevel:timestamps:)`` writes for one message, with
    /// its newline. Package: SectionRegistryTesting's lines print the same.
    package static func line(level: LogLevel, message: String, metadata: [String: String]) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "\(level.rawValue.uppercased()) \(message)\(fields)\n"
    }

    /// Now, as `2026-11-29T13:58:01.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }

    /// The environment variable that sets the default level: one of
    /// `trace`, `debug`, `info` (when unset or not a level), `notice`,
    /// `warning`, `error`, `critical`. Read with `secure_getenv`
    /// (``environmentLevel``): a privileged process ignores it.
    public static let levelVariable = "SECTION_REGISTRY_LOG_LEVEL"

    /// The level ``levelVariable`` names in the process's environment, or
    /// `info`. Read with glibc's `secure_getenv`, so `info` in a privileged
    /// process (set-user-ID, set-group-ID, file capabilities), whose invoker
    /// must not choose what it logs (debug messages can show more than the
    /// invoker may see).
    public static var environmentLevel: LogLevel {
        environmentLevel(default: .info)
    }

    /// The level ``levelVariable`` names in the process's environment, or
    /// `fallback` when it is unset or names no level: how a program picks
    /// its own default without taking the variable from its users (a
    /// command-line tool: `.warning`). Read as ``environmentLevel`` is.
    public static func environmentLevel(default fallback: LogLevel) -> LogLevel {
        level(named: HostVariable.secureValue(levelVariable)) ?? fallback
    }

    /// The level ``levelVariable`` names in `environment`, or `info`.
    static func level(in environment: [String: String]) -> LogLevel {
        level(named: environment[levelVariable]) ?? .info
    }

    private static func level(named name: String?) -> LogLevel? {
        name.flatMap { LogLevel(rawValue: $0.lowercased()) }
    }
}
