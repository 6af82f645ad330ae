import NIOCore
import Routes
import SectionRegistry
import Vapor

@c(app_module_HTTP) func makeHTTP() -> AppModuleHandle { AppModuleHandle(HTTP()) }

/// A late module: serves with Vapor the routes every module added, on
/// 127.0.0.1 and the port in PORT (8080 by default), and the probes of a
/// load balancer: /health/ready (200 while the host is ready, 503 from the
/// first step of its shutdown) and /health/live. The host is running once
/// the server has bound its port: a bind failure fails the launch.
struct HTTP: AppModule {
    var runReportsReady: Bool { true }

    func run(_ context: ModuleContext) async throws {
        // Arguments of its own: Vapor's default environment holds the
        // process's command line, which is the host's, not Vapor's.
        let app = try await Application.make(Environment(name: "production", arguments: ["vapor-server"]), logger: context.logger)
        do {
            try await serve(app, context)
        } catch {
            // A failed application too: Vapor wants every one shut down.
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    /// Starts the server, reports ready, and shuts the server down when the
    /// host asks this run to drain.
    private func serve(_ app: Application, _ context: ModuleContext) async throws {
        let port = context.environment["PORT"].flatMap { Int($0) } ?? 8080
        let intake = ListenerIntake()
        app.middleware.use(ClosesOnShutdown(context: context, intake: intake), at: .beginning)
        app.get("health", "ready") { _ in
            context.isHostReady ? Response(status: .ok, body: "ready\n") : Response(status: .serviceUnavailable, body: "not ready\n")
        }
        app.get("health", "live") { _ in "live\n" }
        try context.service(RouteTable.self).apply(to: app)
        // Vapor's own limit for finishing the requests in flight ends before
        // the host's drainTimeLimit, which covers the whole drain: past it,
        // Vapor gives up and this run fails, naming why (below), instead of
        // the host cancelling a run that never hears its cancellation. The
        // margin is for what comes after: asyncShutdown, and the runs of
        // the modules before this one, which drain after it.
        let margin = min(context.drainTimeLimit / 5, .seconds(5))
        let shutdownLimit = context.drainTimeLimit - margin
        app.http.server.configuration.shutdownTimeout = TimeAmount(shutdownLimit)

        // Not app.execute(): Vapor's serve command would take SIGTERM and
        // SIGINT over, and the host owns the signals. So the boot that
        // execute() does comes first, by hand: the lifecycle handlers
        // (Fluent's among them) run there. Throws if the port cannot be
        // bound: the launch fails, naming the address (NIO's error names
        // the system call only).
        try await app.asyncBoot()
        do {
            try await app.server.start(address: .hostname("127.0.0.1", port: port))
        } catch let error as IOError {
            throw CannotListen(address: "127.0.0.1:\(port)", errno: error.errnoCode)
        }
        let listening = app.http.server.shared.localAddress?.port ?? port
        try intake.listening(onPort: listening)
        context.log("HTTP: ready on 127.0.0.1:\(listening)")
        context.reportReady()

        // At the host's intake step, before any module drains, no new
        // connection gets in and the ones the kernel accepted are served;
        // then the drain request (or this run's cancellation: the stream
        // then ends too).
        let (drain, requestDrain) = AsyncStream<Void>.makeStream()
        await context.withDrainHandler {
            for await _ in drain {}
        } onIntakeStop: {
            await intake.stop()
        } onDrain: {
            requestDrain.finish()
        }
        // Stops accepting, and returns once the requests in flight are
        // answered, or once Vapor's shutdownTimeout has passed.
        context.log("HTTP: draining")
        let began = ContinuousClock.now
        await app.server.shutdown()
        // Past its shutdownTimeout Vapor logs an error and returns, the
        // requests still in flight dropped: this run fails, so that the
        // host's shutdown is not clean and the exit status says so.
        if began.duration(to: .now) >= shutdownLimit {
            throw ShutdownTimedOut(limit: shutdownLimit)
        }
    }
}

/// First in Vapor's middleware: once the host's shutdown began, every
/// response says `Connection: close`, so that a keep-alive client sends its
/// next request elsewhere instead of on a connection the drain closes;
/// before, each response is activity for the intake's grace (its client may
/// send the next request at once). Vapor adds `Connection: keep-alive` of
/// its own after this one; `close` wins, for NIO, for HTTP/1.1 clients
/// (RFC 9112, section 9.6) and for HAProxy.
struct ClosesOnShutdown: AsyncMiddleware {
    let context: ModuleContext
    let intake: ListenerIntake

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        if context.isHostReady {
            intake.sawActivity()
        } else {
            response.headers.replaceOrAdd(name: .connection, value: "close")
        }
        return response
    }
}

/// Vapor's server did not finish its requests within its shutdownTimeout.
struct ShutdownTimedOut: Error, CustomStringConvertible {
    let limit: Duration
    var description: String {
        "Vapor's server did not finish the requests in flight within its shutdownTimeout (\(limit)): they were dropped"
    }
}

/// The server could not bind its address.
struct CannotListen: Error, CustomStringConvertible {
    let address: String
    let errno: CInt
    var description: String {
        "cannot listen on \(address): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
