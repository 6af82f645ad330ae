import SectionRegistry

/// What went wrong in a ``TestHost`` that is not a hook's own error: a
/// shutdown that did not end cleanly, or a drain of a module that is not
/// started or has no `run`.
public struct TestHostError: Error, CustomStringConvertible {
    /// The hooks and `run`s that did not end cleanly (empty for a drain's
    /// error).
    public let failures: [HookOutcome]
    public let description: String

    /// The end of a ``withTestHost(_:configuration:fakes:isolation:_:)``
    /// scope stopped the host, and these did not end cleanly.
    static func unclean(_ failures: [HookOutcome]) -> TestHostError {
        let list = failures.map { "\($0)" }.joined(separator: "; ")
        return TestHostError(failures: failures, description: "the modules under test did not stop cleanly at the end of withTestHost: \(list). "
            + "TestHost.log has the host's messages; to assert on an unclean stop, call stop() in the test and read its outcomes.")
    }

    static func notStarted(_ module: String, started: [String]) -> TestHostError {
        let list = started.isEmpty ? "none: the host has stopped" : started.joined(separator: ", ")
        return TestHostError(failures: [], description: "drain(\"\(module)\"): no started module has that name (started: \(list))")
    }

    static func noRun(_ module: String) -> TestHostError {
        TestHostError(failures: [], description: "drain(\"\(module)\"): module '\(module)' has no run going: it has no run(_:) hook, or its run has ended already")
    }
}
