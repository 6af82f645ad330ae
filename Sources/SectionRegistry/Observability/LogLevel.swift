/// How much a log message matters, from the most detailed to the most
/// severe: the levels of swift-log's `Logger.Level`, with the same raw
/// values.
public enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error, critical

    /// The level of the same name as `level`, a level of another logging
    /// API with these names as raw values (swift-log's `Logger.Level`:
    /// `LogLevel(logger.logLevel)`); ``info`` for a name this enum lacks.
    public init<Level: RawRepresentable>(_ level: Level) where Level.RawValue == String {
        self = LogLevel(rawValue: level.rawValue) ?? .info
    }

    /// This level as a level of another logging API with these names as raw
    /// values (swift-log's: `level.converted(to: Logger.Level.self)`); that
    /// API's most severe level if it lacks this one.
    public func converted<Level: RawRepresentable & CaseIterable>(to _: Level.Type) -> Level where Level.RawValue == String {
        // A level type with no case has no value to convert to: calling
        // this on it is a programming error.
        Level(rawValue: rawValue) ?? Array(Level.allCases).last!
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.severity < rhs.severity
    }

    /// The position in declaration order. A switch, not a search of
    /// `allCases`: every message the host might log asks, and the array
    /// would be made (its type too, on first use) for each question.
    private var severity: Int {
        switch self {
        case .trace: 0
        case .debug: 1
        case .info: 2
        case .notice: 3
        case .warning: 4
        case .error: 5
        case .critical: 6
        }
    }

    public var description: String { rawValue }
}
