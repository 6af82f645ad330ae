import SectionRegistry

/// Runs `body` with the modules under test launched, then stops them at the
/// end of the scope, whatever `body` did.
///
/// ```swift
/// @Test func greetsByName() async throws {
///     try await withTestHost([ModuleDescriptor(name: "Greetings") { Greetings() }]) { test in
///         let report = await test.host.gather(Greet(name: "Ada"))
///         #expect(report.replies.map(\.reply) == ["Hello, Ada"])
///     }
/// }
/// ```
///
/// The modules start as their records would have them, from the
/// descriptors instead of the linker: each `ModuleDescriptor` gives the
/// level, priority and `after` its `APP_MODULE` line declares. Every hook
/// runs as in production (setUp, start, ready, each `run` right after its
/// start, stop after the drain), but no signal is touched and nothing is
/// printed: every line logged at debug and above is in ``TestHost/log``.
///
/// - Parameters:
///   - modules: the modules under test, and any they need that the test
///     does not fake.
///   - configure: changes the host's configuration, given with the test
///     defaults: no arguments, an empty environment (set what a module
///     reads), every line at debug and above recorded in ``TestHost/log``
///     (`$0.log.logLevel = .trace` for all), and 5 seconds for
///     `HostConfiguration.drainTimeLimit`, `HostConfiguration.stopTimeLimit`
///     and `HostConfiguration.readinessTimeLimit` (30, 10 and 30 in
///     production), so that a module that hangs fails the test in seconds.
///     To test one that takes too long, set its limit lower still:
///     `{ $0.drainTimeLimit = .milliseconds(100) }`.
///   - fakes: registers what a module not under test would provide,
///     before the first setUp: `{ try $0.register(Clock.self) { FixedClock() } }`.
///     Its context is ``TestHost/context``.
///   - isolation: the actor `body` runs on: the caller's, as it is
///     written, so that a test on the main actor stays on it.
///   - body: runs once the host is running: every module started, its
///     ready hook called, and each `run` that reports readiness has.
/// - Throws: a `HostError` if the launch failed (it names the module and
///   the hook; what started is stopped); else what `body` threw; else a
///   ``TestHostError`` if the shutdown at the end of the scope did not end
///   cleanly (a stop hook failed or timed out, a `run` failed or did not
///   drain in time), unless `body` called ``TestHost/stop()`` and so has
///   the outcomes.
public func withTestHost<Result>(
    _ modules: [ModuleDescriptor],
    configuration configure: (inout HostConfiguration) -> Void = { _ in },
    fakes: (ModuleContext) throws -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestHost) async throws -> Result
) async throws -> Result {
    let test = try TestHost(modules, configure: configure)
    try fakes(test.context)
    try await test.host.launch()
    let result: Swift.Result<Result, any Error>
    do {
        result = .success(try await body(test))
    } catch {
        result = .failure(error)
    }
    let unclean = await test.stopAtEndOfScope()
    let value = try result.get()
    guard unclean.isEmpty else { throw TestHostError.unclean(unclean) }
    return value
}
