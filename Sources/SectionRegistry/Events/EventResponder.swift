/// How a module answers an event later, from any task: for handlers that
/// bridge callbacks and cannot simply return the answer.
///
/// The first call counts; every later one is ignored and reported in
/// ``DispatchReport/ignoredAnswers(of:)``. A module that never answers is reported
/// as ``EventOutcome/timedOut`` when the time limit is up.
public struct EventResponder<Reply: Sendable>: Sendable {
    let answer: OneShot<EventOutcome<Reply>>

    /// The module handled the event; this is its reply.
    public func respond(_ reply: Reply) {
        answer.fulfil(.handled(reply))
    }

    /// The module leaves the event to others.
    public func decline() {
        answer.fulfil(.declined)
    }

    /// The module failed to handle the event.
    public func fail(_ error: any Error) {
        answer.fulfil(.failed(error))
    }
}
