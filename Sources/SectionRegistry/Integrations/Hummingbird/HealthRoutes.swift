#if Hummingbird
/// The readiness and liveness routes ``ModuleContext/serve(_:health:)``
/// answers ahead of the app's own routes, for a load balancer or Kubernetes.
/// Under the `Hummingbird` trait.
///
/// ```swift
/// try await context.serve(app, health: .standard)
/// ```
///
/// - **Readiness** (`GET` or `HEAD`): 200 while the host is ready
///   (``ModuleContext/isHostReady``), 503 during the launch and from the
///   first step of a shutdown.
/// - **Liveness**: 200 while the server serves.
///
/// Answering the readiness probes, the server sees the balancers that send
/// them, and the host's lame-duck step lasts until they have seen it not
/// ready: each balancer (a client address that probed at least twice, at
/// its own pace, before the shutdown) has been answered 503
/// ``notReadyAnswersToNotice`` times, and half its interval more for it to
/// act on the last. A balancer that stops probing is waited for at most
/// twice its interval (at least a second) after its last probe. The step
/// lasts at least ``HostConfiguration/lameDuckDelay``, which is still what
/// a balancer that does not probe this route needs (Kubernetes' endpoints
/// follow a pod's deletion, not its probes).
public struct HealthRoutes: Sendable {
    /// The readiness probe's path.
    public var readiness: String
    /// The liveness probe's path.
    public var liveness: String
    /// How many 503 answers make a balancer take the server out: HAProxy's
    /// `fall` and Kubernetes' `failureThreshold`, both 3 by default.
    public var notReadyAnswersToNotice: Int

    /// Routes at `readiness` and `liveness`; a balancer takes the server out
    /// after `notReadyAnswersToNotice` answers of 503.
    public init(readiness: String = "/health/ready", liveness: String = "/health/live", notReadyAnswersToNotice: Int = 3) {
        self.readiness = readiness
        self.liveness = liveness
        self.notReadyAnswersToNotice = notReadyAnswersToNotice
    }

    /// `/health/ready` and `/health/live`, taken out after three 503s.
    public static var standard: HealthRoutes { HealthRoutes() }
}
#endif
