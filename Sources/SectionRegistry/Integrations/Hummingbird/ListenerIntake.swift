#if Hummingbird
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Synchronization

/// A server's listener, stopped at the host's intake step so that no
/// connection the kernel accepted is lost.
///
/// A plain graceful shutdown closes the listening socket at once: the
/// connections the kernel has completed, whose requests are sent, but that
/// the server has not accepted yet, are reset with it; and one accepted just
/// before, whose request is not read yet, is closed as idle, as is a
/// keep-alive connection whose next request is on its way. ``stop()``
/// lets the handshakes in progress complete and empties the accept queue
/// behind a filter that lets no new connection in (``NewConnectionFilter``),
/// and gives the connections that were active last time to send their
/// next request, which is then answered with `Connection: close`.
final class ListenerIntake: Sendable {
    /// How long after an accept, or a response on a connection left open,
    /// the connection's next request may still be unread.
    static let grace: Duration = .milliseconds(300)
    /// The longest wait for the handshakes in progress to complete and the
    /// accept queue to empty.
    static let acceptQueueLimit: Duration = .seconds(1)

    private struct State {
        var listener: (any Channel)?
        /// The last accept, or the last response that left its connection
        /// open.
        var lastActivity: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The listening channel, once the server runs: from now on its
    /// accepts are timed (``sawActivity()``).
    func listening(on channel: any Channel) async {
        state.withLock { $0.listener = channel }
        try? await channel.pipeline.addHandler(AcceptClock(intake: self), position: .first).get()
    }

    /// A connection was accepted, or answered and left open: its next
    /// request may come within ``grace``.
    func sawActivity() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }

    /// Whether the server got as far as listening: an I/O error before is
    /// one of binding its address.
    var hasListened: Bool {
        state.withLock { $0.listener != nil }
    }

    /// Stops new connections, waits until the handshakes in progress have
    /// completed and the kernel's accept queue is empty, then until
    /// ``grace`` after the last activity: at once for a server that was
    /// idle.
    func stop() async {
        guard let listener = state.withLock({ $0.listener }) else { return }
        #if os(Linux)
        if let socket = listener as? any SocketOptionProvider {
            _ = try? await socket.unsafeSetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_ATTACH_FILTER), value: NewConnectionFilter.program
            ).get()
            let port = listener.localAddress?.port
            let limit = ContinuousClock.now + Self.acceptQueueLimit
            while ContinuousClock.now < limit {
                // Handshakes first: one that completes between the two
                // reads is then counted in the accept queue, not missed.
                let handshaking = port.map(PendingHandshakes.count(port:)) ?? 0
                // On a listener, tcpi_unacked is the accept queue's length.
                let queued = (try? await socket.getTCPInfo().get())?.tcpi_unacked ?? 0
                guard handshaking > 0 || queued > 0 else { break }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        #endif
        if let lastActivity = state.withLock({ $0.lastActivity }), lastActivity + Self.grace > .now {
            try? await Task.sleep(until: lastActivity + Self.grace)
        }
    }
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
