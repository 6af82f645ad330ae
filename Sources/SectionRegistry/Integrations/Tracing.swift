// swift-distributed-tracing, under the `Tracing` trait: the tracer a
// module's own spans go to. The host's spans are Observability/LifecycleSpans.swift.
#if Tracing
import Tracing

extension ModuleContext {
    /// The host's tracer (``HostConfiguration/tracer``, or the one the
    /// program bootstrapped). A span a module starts with it, or with
    /// swift-distributed-tracing's global `withSpan`, inside one of its
    /// hooks or its `run` is a child of that hook's span:
    ///
    /// ```swift
    /// func start(_ context: ModuleContext) async throws {
    ///     try await context.tracer.withSpan("warm cache") { _ in try await cache.warm() }
    /// }
    /// ```
    ///
    /// Use this one where a test gives the host a tracer of its own: the
    /// global functions use the bootstrapped tracer.
    public var tracer: any Tracer { host.spans.tracer }
}
#endif
