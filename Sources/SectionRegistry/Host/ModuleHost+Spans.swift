// Where the host's work is traced under the `Tracing` trait (Tracing.md):
// the engine calls these around its steps whatever the traits; without
// `Tracing` each is a plain call of its body, inlined.
extension ModuleHost {
    /// Runs `body`, the host's operation or step `name`, in a span of that
    /// name, with `modules` named in its attributes when given: an
    /// operation (a launch, a reload, a removal) is a `root`, a step a
    /// child of the task's current span (the shutdown's).
    @inline(__always)
    func withSpan<T, Failure: Error>(
        _ name: String, root: Bool = false, modules: @autoclosure () -> [String]? = nil, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        #if Tracing
        let attributes = modules().map { [LifecycleSpans.Attribute.modules: $0.joined(separator: ",")] } ?? [:]
        return try await shared.spans.withSpan(name, root: root, attributes: attributes, body)
        #else
        return try await body()
        #endif
    }

    /// Runs the shutdown's steps in the shutdown's span, begun when the
    /// first stop was asked (``requestStop(_:)``); ``enter(_:)`` ends it,
    /// as the host's status becomes final.
    @inline(__always)
    func withShutdownSpan(_ steps: () async -> Void) async {
        #if Tracing
        await shared.spans.withShutdownSpan(steps)
        // A host whose launch had failed does not change its status: its
        // shutdown's span ends here.
        shared.spans.endShutdown(failures: 0)
        #else
        await steps()
        #endif
    }
}
