#if Hummingbird
import NIOCore

extension ListenerIntake {
    /// The listening channel, once the server runs: its port is the one
    /// stopped, and from now on its accepts are timed (``sawActivity()``).
    func listening(on channel: any Channel) async {
        // The channel's own port: its socket is there to be found.
        if let port = channel.localAddress?.port {
            try? listening(onPort: port)
        }
        try? await channel.pipeline.addHandler(AcceptClock(intake: self), position: .first).get()
    }

    /// Whether the server got as far as listening: an I/O error before is
    /// one of binding its address.
    var hasListened: Bool { port != nil }
}

/// First in the listener's pipeline: each read there is an accepted
/// connection.
private final class AcceptClock: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel

    let intake: ListenerIntake

    init(intake: ListenerIntake) {
        self.intake = intake
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        intake.sawActivity()
        context.fireChannelRead(data)
    }
}
#endif
