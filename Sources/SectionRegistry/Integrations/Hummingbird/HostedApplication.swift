#if Hummingbird
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// A user's application as ``ModuleContext/serve(_:health:)`` runs it: the
/// same server, services and configuration; its listener handed to the
/// intake and readiness reported once it runs; its health routes answered;
/// its responses saying `Connection: close` once the host's shutdown began.
struct HostedApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    let base: Base
    let intake: ListenerIntake
    let health: ServedHealth?
    let host: ShutdownStage
    let listening: @Sendable () -> Void

    var responder: HostedResponder<Base.Responder> {
        get async throws { HostedResponder(base: try await base.responder, intake: intake, health: health, host: host) }
    }

    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    func onServerRunning(_ channel: any Channel) async {
        await intake.listening(on: channel)
        await base.onServerRunning(channel)
        listening()
    }
}

/// The health routes `serve` answers, and the balancers seen probing the
/// readiness route. Not nested in ``HostedResponder``: a type nested in a
/// generic type is generic too, and its metadata was looked up at each
/// request.
struct ServedHealth: Sendable {
    let routes: HealthRoutes
    let probes: ReadinessProbes
}

/// Answers the health routes, if any, and every other request as `base`
/// does; once the host's shutdown began, every response says
/// `Connection: close`. Before, each response of `base` (not a probe's) is
/// activity for the intake's grace: its keep-alive client may send the next
/// request at once.
struct HostedResponder<Base: HTTPResponder>: HTTPResponder {
    typealias Context = Base.Context

    let base: Base
    let intake: ListenerIntake
    let health: ServedHealth?
    let host: ShutdownStage

    func respond(to request: Request, context: Context) async throws -> Response {
        // A probe is not the activity the intake's grace is for: a
        // balancer's next one comes at its own pace, and is not lost.
        let probe = answerHealth(request, context)
        var response = if let probe { probe } else { try await base.respond(to: request, context: context) }
        if host.hasBegun {
            response.headers[.connection] = "close"
        } else if probe == nil {
            intake.sawActivity()
        }
        return response
    }

    /// The answer to a probe of `health`'s routes; `nil` for any other
    /// request.
    private func answerHealth(_ request: Request, _ context: Context) -> Response? {
        guard let health, request.method == .get || request.method == .head else { return nil }
        switch request.uri.path {
        case health.routes.readiness:
            let ready = host.isReady
            // The balancer's address, where the context keeps it: each
            // balancer is followed at its own pace.
            let source = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "a balancer"
            health.probes.answered(by: source, ready: ready)
            return Response(status: ready ? .ok : .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: ready ? "ready\n" : "not ready\n")))
        case health.routes.liveness:
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "live\n")))
        default:
            return nil
        }
    }
}
#endif
