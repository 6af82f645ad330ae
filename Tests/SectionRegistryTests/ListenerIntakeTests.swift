#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SectionRegistry

/// ``ListenerIntake`` on a plain POSIX listener, as Vapor's is to it: found
/// by its port, no library's handle; the connection the kernel accepted is
/// served before the stop returns, and a new one is not let in.
@Suite(.timeLimit(.minutes(1))) struct ListenerIntakeTests {
    @Test func theStopServesTheAcceptQueueAndLetsNoNewConnectionIn() async throws {
        let listener = try TCPSocket.listening()
        defer { close(listener.descriptor) }
        #expect(ListeningSocket(port: listener.port).descriptors() == [listener.descriptor], "found by its port")

        // Completed by the kernel, not accepted yet.
        let queued = try TCPSocket.connecting(to: listener.port)
        defer { close(queued) }
        let intake = ListenerIntake()
        try intake.listening(onPort: listener.port)
        let began = ContinuousClock.now
        let stop = Task {
            await intake.stop()
            return ContinuousClock.now
        }
        // Until the stop has begun: its filter is on the listener. Polled:
        // a loaded machine can take long to run the stop's task.
        while !Self.hasFilter(listener.descriptor) { try await Task.sleep(for: .milliseconds(5)) }

        // A new connection after the stop began: its SYN is dropped, so it
        // does not complete (a client would retry, then find the port closed).
        let late = try TCPSocket.connecting(to: listener.port, waitingAtMost: .milliseconds(300))
        defer { close(late.descriptor) }
        #expect(!late.connected, "a connection attempted after the stop is not let in")

        let accepted = accept(listener.descriptor, nil, nil)
        #expect(accepted >= 0)
        close(accepted)
        let acceptedAt = ContinuousClock.now
        let stoppedAt = await stop.value
        if stoppedAt > acceptedAt {
            // Then the grace after that accept: its request is read next.
            #expect(acceptedAt.duration(to: stoppedAt) >= ListenerIntake.grace - .milliseconds(50))
        } else {
            // Only a machine stalled past the limit gets here: the wait for
            // the accept queue is bounded, by design.
            #expect(began.duration(to: stoppedAt) >= ListenerIntake.acceptQueueLimit, "returned with a connection in the accept queue")
        }
    }
}

extension ListenerIntakeTests {
    /// Whether a socket filter is attached to `descriptor`: `SO_GET_FILTER`
    /// (the same number as `SO_ATTACH_FILTER`) with no buffer answers its
    /// length in instructions.
    static func hasFilter(_ descriptor: CInt) -> Bool {
        var instructions: socklen_t = 0
        return getsockopt(descriptor, SOL_SOCKET, SO_ATTACH_FILTER, nil, &instructions) == 0 && instructions > 0
    }

    /// A port no socket of this process listens on (the server's
    /// configured port where it bound another, say) is refused at once,
    /// not found to have nothing to stop at the intake step.
    @Test func aPortThisProcessDoesNotListenOnIsAnErrorNamingIt() throws {
        let closed = try TCPSocket.listening()
        close(closed.descriptor)
        let error = #expect(throws: ListenerIntake.NotListening.self) {
            try ListenerIntake().listening(onPort: closed.port)
        }
        #expect(error?.description == "ListenerIntake: no socket of this process listens on TCP port \(closed.port): give "
            + "listening(onPort:) the port the server bound, once it listens (a server started on port 0 binds another)")
    }
}

/// Loopback TCP sockets, with the system calls and nothing else.
enum TCPSocket {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code = errno
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// A listener on 127.0.0.1 and a port the kernel chose.
    static func listening() throws -> (descriptor: CInt, port: Int) {
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = loopback(port: 0)
        guard withSocketAddress(&address, { bind(descriptor, $0, $1) }) == 0 else { throw Failure(call: "bind") }
        guard listen(descriptor, 16) == 0 else { throw Failure(call: "listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }) == 0
        else { throw Failure(call: "getsockname") }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connection to `port`, completed.
    static func connecting(to port: Int) throws -> CInt {
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = loopback(port: port)
        guard withSocketAddress(&address, { connect(descriptor, $0, $1) }) == 0 else { throw Failure(call: "connect") }
        return descriptor
    }

    /// A connection to `port` attempted without blocking, and whether it
    /// completed within `limit`.
    static func connecting(to port: Int, waitingAtMost limit: Duration) throws -> (descriptor: CInt, connected: Bool) {
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = loopback(port: port)
        if withSocketAddress(&address, { connect(descriptor, $0, $1) }) == 0 { return (descriptor, true) }
        guard errno == EINPROGRESS else { throw Failure(call: "connect") }
        var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let milliseconds = CInt(limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        return (descriptor, poll(&writable, 1, milliseconds) == 1)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func withSocketAddress(_ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> CInt) -> CInt {
        withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }
}
#endif
