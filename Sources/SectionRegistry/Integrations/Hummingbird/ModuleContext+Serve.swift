#if Hummingbird
import Hummingbird
import NIOCore
import ServiceLifecycleTestKit

extension ModuleContext {
    /// Runs a Hummingbird application as this module's `run`, for a deploy
    /// that loses no request the kernel accepted: call it in
    /// ``AppModule/run(_:)`` where you would write `try await app.run()`.
    /// Under the `Hummingbird` trait.
    ///
    /// ```swift
    /// struct HTTP: AppModule {
    ///     var runReportsReady: Bool { true }
    ///
    ///     func run(_ context: ModuleContext) async throws {
    ///         let app = Application(router: router, configuration: .init(address: .hostname("0.0.0.0", port: 8080)))
    ///         try await context.serve(app, health: .standard)
    ///     }
    /// }
    /// ```
    ///
    /// What it adds to the plain run, in the order of a stop:
    ///
    /// 1. **Ready once it listens.** It calls ``reportReady()`` once the
    ///    server has bound its port (after the app's own `onServerRunning`):
    ///    declare ``AppModule/runReportsReady`` and the modules after this
    ///    one start, and the host runs, only then; a bind failure fails the
    ///    launch, with an error naming the address (`cannot listen on
    ///    127.0.0.1:8080: Address already in use (errno 98): ...`). Not
    ///    declared, the host logs a warning naming the module.
    /// 2. **The probes, with `health`** (``HealthRoutes``): `/health/ready`
    ///    answers 200 while the host is ready and 503 from the first step of
    ///    its shutdown, `/health/live` 200, ahead of the app's routes; and
    ///    the host's lame-duck step lasts until the balancers probing the
    ///    readiness route have seen the 503s (the Deploying article).
    /// 3. **`Connection: close` from the moment the shutdown begins** (the
    ///    host's readiness withdrawn, through the lame-duck delay): a
    ///    keep-alive client opens a new connection for its next request,
    ///    which a balancer sends elsewhere, instead of sending it on a
    ///    connection the drain will close. A response the app's responder
    ///    throws instead of returning (Hummingbird's 500 for an error it
    ///    does not know) goes without it.
    /// 4. **The intake stop** (``withDrainHandler(isolation:_:onIntakeStop:onDrain:)``),
    ///    before any module drains. On Linux, a socket filter on the
    ///    listener drops new connection attempts (clients retry, then find
    ///    the port closed) and lets the handshakes already half-way
    ///    complete; the server accepts until none is in progress and the
    ///    kernel's accept queue is empty, for at most a second; then, if it
    ///    accepted a connection or answered a request in the last 300 ms, it waits until 300 ms after that, so
    ///    that the connection's next request is read (and answered with
    ///    `Connection: close`) before the graceful shutdown would close it
    ///    as idle. An idle server does not wait. Elsewhere only that wait
    ///    is kept.
    /// 5. **The drain**, in this module's turn: the app's graceful shutdown.
    ///    The listener closes, the requests in flight are answered, and
    ///    this returns once the server has stopped.
    ///
    /// What a plain graceful shutdown loses and this keeps is measured in
    /// the Servers article. It costs at most the 300 ms wait and the time
    /// to complete the handshakes and empty the accept queue, inside
    /// ``HostConfiguration/drainTimeLimit``.
    ///
    /// - Parameters:
    ///   - app: The application, as built for `app.run()`; its own
    ///     responder, server, services and `onServerRunning` are kept.
    ///   - routes: The readiness and liveness routes to answer, and how many
    ///     503s a balancer takes to notice; `nil`, the default, answers
    ///     none, and the lame-duck step is ``HostConfiguration/lameDuckDelay``
    ///     alone.
    public func serve<App: ApplicationProtocol>(_ app: App, health routes: HealthRoutes? = nil) async throws {
        let intake = ListenerIntake()
        let health = routes.map { ServedHealth(routes: $0, probes: ReadinessProbes(notReadyAnswersToNotice: $0.notReadyAnswersToNotice)) }
        let hosted = HostedApplication(base: app, intake: intake, health: health, host: host.shutdown) {
            reportReady(
                undeclared: "serves with context.serve(_:), which reports ready once its server listens, but does not declare "
                    + "`var runReportsReady: Bool { true }`",
                fix: "Declare it, so that they start once it serves.")
        }
        // The app hears a graceful shutdown of its own, in this module's
        // turn to drain, whatever the task tree around the host hears.
        try await testGracefulShutdown { trigger in
            try await withDrainHandler {
                let run = {
                    do {
                        try await hosted.run()
                    } catch let error as IOError where !intake.hasListened {
                        // NIO names the system call; the user wants the address.
                        throw ListenFailure(address: app.configuration.address, errno: error.errnoCode)
                    }
                }
                if let health {
                    try await life.withLameDuckWait(run, until: health.probes.noticed)
                } else {
                    try await run()
                }
            } onIntakeStop: {
                await intake.stop()
            } onDrain: {
                trigger.triggerGracefulShutdown()
            }
        }
    }
}
#endif
