/// A ``HostLogHandler`` that calls a closure: for tests, and for apps that
/// print module lines their own way.
///
/// ```swift
/// configuration.log = ClosureLogHandler { level, message, metadata in print(message) }
/// ```
public struct ClosureLogHandler: HostLogHandler {
    public var logLevel: LogLevel
    private let body: @Sendable (LogLevel, String, [String: String]) -> Void

    /// Passes every message at `logLevel` or above to `body`.
    public init(logLevel: LogLevel = .info, _ body: @escaping @Sendable (_ level: LogLevel, _ message: String, _ metadata: [String: String]) -> Void) {
        self.logLevel = logLevel
        self.body = body
    }

    public func log(level: LogLevel, message: String, metadata: [String: String]) {
        body(level, message, metadata)
    }
}
