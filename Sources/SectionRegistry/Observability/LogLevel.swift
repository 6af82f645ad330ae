/// How much a log message matters, from the most detailed to the most
/// severe: the levels of swift-log's `Logger.Level`, with the same raw
/// values, so a bridge converts with `Logger.Level(rawValue:)`.
public enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error, critical

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    public var description: String { rawValue }
}
