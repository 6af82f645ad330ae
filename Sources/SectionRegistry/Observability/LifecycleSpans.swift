// The host's spans, under the `Tracing` trait (Tracing.md): a span for the
// launch, the shutdown and each of its steps, and for each hook a module
// writes. Without the trait, none of this is compiled, and the host's
// `withSpan` helpers (Host/ModuleHost+Spans.swift) are plain calls.
#if Tracing
import Tracing

/// Makes and ends the host's spans through the host's tracer
/// (``HostConfiguration/tracer``).
///
/// A hook's span begins in the task that calls the hook, as the hook
/// begins, so that what the hook does nests under it (the span's context is
/// the task's for the hook); it ends with the hook's record, when the host
/// knows how the hook ended: a hook the host stopped waiting for (timed out,
/// cut off) ends its span then, not when, or if, it returns.
final class LifecycleSpans: Sendable {
    let tracer: any Tracer
    /// Each module's level, by its place in the host's roster: the
    /// descriptor is at hand when the module is made, not where its spans
    /// begin.
    private let levels = Locked<[Int: ModuleLevel]>([:])
    /// The shutdown's span, from the first stop request to the shutdown's
    /// end.
    private let shutdown = Locked<(any Span)?>(nil)

    init(tracer: any Tracer) {
        self.tracer = tracer
    }

    /// The names of the attributes the host sets (Tracing.md lists them).
    enum Attribute {
        static let module = "section_registry.module"
        static let level = "section_registry.level"
        static let phase = "section_registry.phase"
        static let outcome = "section_registry.outcome"
        static let stopReason = "section_registry.stop_reason"
        static let modules = "section_registry.modules"
        static let failures = "section_registry.failures"
    }

    func note(level: ModuleLevel, ofModuleAt position: Int) {
        levels.withLock { $0[position] = level }
    }

    // MARK: Steps

    /// Runs `body` in a span named `name`, with `attributes`; a thrown
    /// error is recorded on it. A `root` span begins a trace of its own
    /// (an operation of the host: which task asked for it, and which
    /// span that task was in, is not the host's to know: the engine
    /// performs every request in one task); any other is a child of the
    /// task's current span.
    func withSpan<T, Failure: Error>(
        _ name: String, root: Bool, attributes: [String: String] = [:], isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let span = tracer.startSpan(name, context: root ? .topLevel : InstrumentationContext.current ?? .topLevel)
        set(attributes, on: span)
        let result: Result<T, Failure> = await InstrumentationContext.withValue(span.context) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result { fail(span, error) }
        span.end()
        return try result.get()
    }

    /// Begins the shutdown's span, as the first stop is asked: the host is
    /// no longer ready from this instant (the span's first event).
    func beginShutdown(_ reason: StopReason) {
        let span = tracer.startSpan("shutdown", context: .topLevel)
        span.attributes[Attribute.stopReason] = reason.name
        span.addEvent("readiness withdrawn")
        shutdown.withLock { $0 = span }
    }

    /// Runs the shutdown's steps in its span, the task's span while they
    /// run.
    func withShutdownSpan(isolation: isolated (any Actor)? = #isolation, _ steps: () async -> Void) async {
        guard let span = shutdown.withLock({ $0 }) else { return await steps() }
        await InstrumentationContext.withValue(span.context) { await steps() }
    }

    /// Ends the shutdown's span, if one began and is not ended yet, with
    /// the number of hooks and `run`s that did not stop cleanly: before the
    /// host publishes its final status, so that whoever waits for that
    /// status finds the span ended.
    func endShutdown(failures: Int) {
        guard let span = shutdown.withLock({ shutdown in
            defer { shutdown = nil }
            return shutdown
        }) else { return }
        span.attributes[Attribute.failures] = failures
        if failures > 0 { span.setStatus(SpanStatus(code: .error, message: "\(failures) did not stop cleanly")) }
        span.end()
    }

    // MARK: Hooks

    /// Begins the span of `module`'s hook of `phase`, a child of the
    /// task's current span.
    func beginHook(_ module: String, at position: Int, _ phase: LifecyclePhase) -> any Span {
        begin(module + " " + phase.rawValue, of: module, at: position, [Attribute.phase: phase.rawValue])
    }

    /// Ends a hook's span: it ended as `outcome` (a `HookRecord.End`'s
    /// name) at `end`, with `error` if it failed. An outcome that is not
    /// `clean` sets the span's status to error.
    func endHook(_ span: any Span, outcome: String, clean: Bool, error: (any Error)?, at end: MonotonicInstant) {
        guard span.isRecording else { return span.end(at: Self.instant(of: end)) }
        span.attributes[Attribute.outcome] = outcome
        if let error {
            fail(span, error)
        } else if !clean {
            span.setStatus(SpanStatus(code: .error, message: outcome))
        }
        span.end(at: Self.instant(of: end))
    }

    /// Ends a `run`'s span: it returned (`completed`), threw (`failed`),
    /// or gave way to its cancellation (`result` is `nil`: `cancelled`).
    func endRun(_ span: any Span, _ result: HookOutcome.Result?, at end: MonotonicInstant) {
        switch result {
        case .failed(let error): endHook(span, outcome: "failed", clean: false, error: error, at: end)
        case nil: endHook(span, outcome: "cancelled", clean: true, error: nil, at: end)
        case .some: endHook(span, outcome: "completed", clean: true, error: nil, at: end)
        }
    }

    // MARK: Drains

    /// Begins the span of the drain of `module`'s `run`, as it is asked
    /// to finish.
    func beginDrain(_ module: String, at position: Int) -> any Span {
        begin(module + " drain", of: module, at: position)
    }

    /// Ends a drain's span as `outcome`, with `failure`'s error if the
    /// `run` threw once asked.
    func endDrain(_ span: any Span, _ outcome: DrainOutcome, failure: HookOutcome?) {
        let error: (any Error)? = if case .failed(let error)? = failure?.result { error } else { nil }
        endHook(span, outcome: outcome.rawValue, clean: outcome == .drained, error: error, at: .now)
    }

    // MARK: Support

    /// Begins a span of `module`'s, a child of the task's current span,
    /// with the module's name and level, and `attributes`.
    private func begin(_ name: String, of module: String, at position: Int, _ attributes: [String: String] = [:]) -> any Span {
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel)
        // A span that records nothing (no tracer bootstrapped, or not
        // sampled) is given no attributes: most of a hook's cost here.
        guard span.isRecording else { return span }
        var attributes = attributes
        attributes[Attribute.module] = module
        if let level = levels.withLock({ $0[position] }) { attributes[Attribute.level] = "\(level)" }
        set(attributes, on: span)
        return span
    }

    private func set(_ attributes: [String: String], on span: any Span) {
        guard !attributes.isEmpty else { return }
        span.updateAttributes { span in
            for (key, value) in attributes { span[key] = value }
        }
    }

    private func fail(_ span: any Span, _ error: any Error) {
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error, message: "\(error)"))
    }

    /// `instant` on the tracer's clock (nanoseconds since the epoch), by
    /// the distance from now on the monotonic clock.
    static func instant(of instant: MonotonicInstant) -> DefaultTracerClock.Timestamp {
        let now = DefaultTracerClock.now.nanosecondsSinceEpoch
        let ago = max(0, MonotonicInstant.now.nanoseconds - instant.nanoseconds)
        return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: now - UInt64(ago))
    }
}

#endif
