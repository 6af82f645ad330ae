#if Hummingbird
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// A user's application as ``ModuleContext/serve(_:)`` runs it: the same
/// server, services and configuration; its listener handed to the intake
/// and readiness reported once it runs; its responses saying
/// `Connection: close` once the host's shutdown began.
struct HostedApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    let base: Base
    let intake: ListenerIntake
    let shutdownBegun: @Sendable () -> Bool
    let listening: @Sendable () -> Void

    var responder: CloseOnShutdown<Base.Responder> {
        get async throws { CloseOnShutdown(base: try await base.responder, intake: intake, shutdownBegun: shutdownBegun) }
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

/// Answers as `base` does; once the host's shutdown began, every response
/// says `Connection: close`. Before, each response is activity for the
/// intake's grace: its keep-alive client may send the next request at once.
struct CloseOnShutdown<Base: HTTPResponder>: HTTPResponder {
    typealias Context = Base.Context

    let base: Base
    let intake: ListenerIntake
    let shutdownBegun: @Sendable () -> Bool

    func respond(to request: Request, context: Context) async throws -> Response {
        var response = try await base.respond(to: request, context: context)
        if shutdownBegun() {
            response.headers[.connection] = "close"
        } else {
            intake.sawActivity()
        }
        return response
    }
}
#endif
