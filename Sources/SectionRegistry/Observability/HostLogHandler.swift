/// Where a host's messages and its modules' ``ModuleContext/log(_:level:)``
/// lines go: the shape of swift-log's `LogHandler`, cut to what the host
/// needs, so that a bridge to swift-log is a few lines (see <doc:Lifecycle>).
///
/// Every message of the host goes through it: launch steps and each hook's
/// duration at ``LogLevel/debug``, signals at ``LogLevel/info``, hooks slower
/// than ``HostConfiguration/slowHookThreshold`` and time limits hit at
/// ``LogLevel/warning``, failures at ``LogLevel/error``. Metadata names the
/// `module`, the `phase` and the `duration` (in milliseconds) where they
/// apply.
public protocol HostLogHandler: Sendable {
    /// Messages below this level are neither built nor passed to
    /// ``log(level:message:metadata:)``.
    var logLevel: LogLevel { get }

    /// Writes one message. Called from any task, possibly concurrently.
    func log(level: LogLevel, message: String, metadata: [String: String])
}
