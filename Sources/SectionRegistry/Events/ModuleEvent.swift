/// An event the host dispatches to the modules that handle it: one of the
/// app's own, with its own payload and reply type.
///
/// ```swift
/// struct OpenURL: ModuleEvent {
///     typealias Reply = String    // what the handling module answers
///     let url: String
/// }
/// ```
///
/// Modules register handlers with `context.on(Event.self) { event in ... }`
/// (`on(_:handler:)` of ``ModuleContext``: the reply, or `nil` to decline;
/// for an event without a reply, a body that returns nothing handles it)
/// or ``ModuleContext/on(_:answer:)`` for an answer given later, and the
/// host dispatches with ``ModuleHost/broadcast(_:)``,
/// ``ModuleHost/firstHandler(for:)`` or ``ModuleHost/gather(_:)``.
public protocol ModuleEvent: Sendable {
    /// What a module answers when it handles the event.
    associatedtype Reply: Sendable = Void

    /// Whether a broadcast stops at the first handler that fails. The
    /// default, `false`, lets every other module still get the event.
    static var stopsAtFailure: Bool { get }

    /// How long ``ModuleHost/gather(_:)`` waits for each module's answer;
    /// `nil`, the default, takes ``HostConfiguration/answerTimeLimit``.
    static var answerTimeLimit: Duration? { get }
}

extension ModuleEvent {
    public static var stopsAtFailure: Bool { false }
    public static var answerTimeLimit: Duration? { nil }
}
