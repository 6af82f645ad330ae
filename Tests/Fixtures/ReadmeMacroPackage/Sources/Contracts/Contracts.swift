import SectionRegistry

/// A service Accounts offers and Billing looks up.
public protocol AccountDirectory: Sendable {
    var userNames: [String] { get }
}

/// The open-URL case: the first module that recognises the path answers.
public struct OpenPath: ModuleEvent {
    public typealias Reply = String
    public let path: String
    public init(_ path: String) { self.path = path }
}

/// Every module may add a line.
public struct DailyReport: ModuleEvent {
    public typealias Reply = String
    public let day: String
    public init(day: String) { self.day = day }
}

/// Each module answers when it can; one that never does times out.
public struct HealthCheck: ModuleEvent {
    public typealias Reply = Bool
    public static var answerTimeLimit: Duration? { .milliseconds(200) }
    public init() {}
}
