import SectionRegistry
import Synchronization

/// Keeps every line a host logs, its modules' `ModuleContext.log(_:level:metadata:)`
/// lines and the host's own messages, for a test to read.
///
/// ``TestHost`` records into one (``TestHost/log``); to record a host of
/// your own, configure it with ``handler(logLevel:)``:
///
/// ```swift
/// let log = LogRecorder()
/// configuration.log = log.handler()
/// ```
public final class LogRecorder: Sendable {
    private let recorded = Mutex<[LoggedLine]>([])

    /// An empty recorder.
    public init() {}

    /// A handler that records every line at `logLevel` or above (every
    /// line, by default: a module's debug lines too).
    public func handler(logLevel: LogLevel = .trace) -> HostLogHandler {
        HostLogHandler(logLevel: logLevel) { level, message, metadata in
            self.recorded.withLock { $0.append(LoggedLine(level: level, message: message, metadata: metadata)) }
        }
    }

    /// Every line so far, in the order logged.
    public var lines: [LoggedLine] {
        recorded.withLock { $0 }
    }

    /// What `module` logged through its context, in order. The host's
    /// messages about it (a hook's duration at debug, a time limit it hit,
    /// its failure) are in ``lines``, with its name as their `module`
    /// metadata.
    public func lines(of module: String) -> [LoggedLine] {
        lines.filter { $0.module == module && !$0.isFromHost }
    }
}

/// One line of a host's log.
public struct LoggedLine: Sendable, Equatable, CustomStringConvertible {
    public let level: LogLevel
    public let message: String
    /// The line's metadata: a module's own, with `module` (its name); for
    /// the host's messages, `module`, `phase` and `duration` where they apply.
    public let metadata: [String: String]

    /// The module the line is of, if any: its `module` metadata.
    public var module: String? { metadata["module"] }

    /// Whether the host wrote it: every message of the host begins
    /// `SectionRegistry:`.
    public var isFromHost: Bool { message.hasPrefix("SectionRegistry:") }

    /// `LEVEL message key=value ...`, as the standard-error handler writes it.
    public var description: String {
        String(HostLogHandler.line(level: level, message: message, metadata: metadata).dropLast())
    }
}
