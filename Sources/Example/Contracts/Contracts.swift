// What the example's features share: a service protocol and the app's own
// events. Features depend on this target, not on each other.
import SectionRegistry

/// A service the Accounts module offers and others look up by type.
public protocol AccountDirectory: Sendable {
    var userNames: [String] { get }
}

/// A request that the first module to recognise its path answers (the
/// open-URL case).
public struct OpenPath: ModuleEvent {
    public typealias Reply = String
    public let path: String

    public init(_ path: String) {
        self.path = path
    }
}

/// A custom event every module may add a line to.
public struct DailyReport: ModuleEvent {
    public typealias Reply = String
    public let day: String

    public init(day: String) {
        self.day = day
    }
}

/// Asked of every module at once; each answers when it can.
public struct HealthCheck: ModuleEvent {
    public typealias Reply = Bool
    public static var answerTimeLimit: Duration? { .milliseconds(200) }

    public init() {}
}
