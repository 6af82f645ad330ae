#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A server's intake, for the host's intake step: stopped so that no
/// connection the kernel accepted is lost.
///
/// A plain graceful shutdown closes the listening socket at once: the
/// connections the kernel has completed, whose requests are sent, but that
/// the server has not accepted yet, are reset with it; and one accepted just
/// before, whose request is not read yet, is closed as idle, as is a
/// keep-alive connection whose next request is on its way. ``stop()``
/// lets the handshakes in progress complete and the server empty its accept
/// queue behind a filter that lets no new connection in, then gives the
/// connections that were active last to send their next request, for the
/// server to answer with `Connection: close`.
///
/// `context.serve(app)` (the `Hummingbird` trait) uses one.
/// For a server a module runs itself (Vapor's, for one), tell it the port
/// once the server listens, call ``sawActivity()`` for each response that
/// leaves its connection open, and stop it as the drain handler's intake
/// stop:
///
/// ```swift
/// let intake = ListenerIntake()
/// try await app.server.start(address: .hostname("127.0.0.1", port: port))
/// try intake.listening(onPort: app.http.server.shared.localAddress?.port ?? port)
/// await context.withDrainHandler {
///     for await _ in drain {}
/// } onIntakeStop: {
///     await intake.stop()
/// } onDrain: {
///     requestDrain.finish()
/// }
/// await app.server.shutdown()
/// ```
///
/// The listener is found by its port among this process's sockets, on
/// Linux (see `Serving/ListeningSocket.swift`); elsewhere only the wait
/// after the last activity is kept.
public final class ListenerIntake: Sendable {
    /// How long after an accept, or a response on a connection left open,
    /// the connection's next request may still be unread.
    public static let grace: Duration = .milliseconds(300)
    /// The longest wait for the handshakes in progress to complete and the
    /// accept queue to empty.
    public static let acceptQueueLimit: Duration = .seconds(1)

    private struct State {
        var port: Int?
        /// The last accept, or the last response that left its connection
        /// open.
        var lastActivity: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// An intake that knows no listener yet.
    public init() {}

    /// The server listens on TCP `port`, in this process.
    ///
    /// - Throws: ``NotListening`` if, on Linux, no socket of this process
    ///   listens on `port`: the stop would have nothing to stop, and the
    ///   requests it keeps would be lost without a word.
    public func listening(onPort port: Int) throws(NotListening) {
        #if os(Linux)
        guard !ListeningSocket(port: port).descriptors().isEmpty else { throw NotListening(port: port) }
        #endif
        state.withLock { $0.port = port }
    }

    /// No socket of this process listens on the port given to
    /// ``ListenerIntake/listening(onPort:)``.
    public struct NotListening: Error, CustomStringConvertible {
        /// The port given.
        public let port: Int

        public var description: String {
            "ListenerIntake: no socket of this process listens on TCP port \(port): give listening(onPort:) the port the server "
                + "bound, once it listens (a server started on port 0 binds another)"
        }
    }

    /// A connection was accepted, or answered and left open: its next
    /// request may come within ``grace``.
    public func sawActivity() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }

    /// The port passed to ``listening(onPort:)``: `nil` until the server
    /// listens.
    var port: Int? {
        state.withLock { $0.port }
    }

    /// Stops new connections to the port, waits until the handshakes in
    /// progress have completed and the kernel's accept queue is empty (at
    /// most ``acceptQueueLimit``), then until ``grace`` after the last
    /// activity: at once for a server that was idle.
    public func stop() async {
        guard let port else { return }
        #if os(Linux)
        let socket = ListeningSocket(port: port)
        if !socket.descriptors().map(NewConnectionFilter.attach(to:)).isEmpty {
            let limit = ContinuousClock.now + Self.acceptQueueLimit
            var waited = false
            while socket.pendingConnections() > 0, ContinuousClock.now < limit {
                waited = true
                try? await Task.sleep(for: .milliseconds(10))
            }
            // The last connections accepted: their requests are read next.
            if waited { sawActivity() }
        }
        #endif
        if let lastActivity = state.withLock({ $0.lastActivity }), lastActivity + Self.grace > .now {
            try? await Task.sleep(until: lastActivity + Self.grace)
        }
    }
}
