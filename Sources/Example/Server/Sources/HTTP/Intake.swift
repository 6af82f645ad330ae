#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import NIOCore
import SectionRegistry
import ServiceLifecycleTestKit
import Synchronization

/// Serves a Hummingbird `Application` until the host drains the module; at
/// the host's intake step, before any module drains, it stops taking
/// requests, so that no request the kernel accepted is lost (Linux).
///
/// A plain graceful shutdown closes the listening socket at once: the
/// connections the kernel has completed, whose requests are sent, but that
/// the server has not accepted yet, are reset with it; and one accepted just
/// before, whose request is not read yet, is closed as idle. Here, at the
/// intake step (`onIntakeStop`):
///
/// 1. a socket filter on the listener drops new connection attempts (a
///    client retries its SYN, and then finds the port closed: refused,
///    never accepted);
/// 2. the server keeps accepting until the kernel's accept queue is empty
///    (TCP_INFO on a listener reports its length), for at most a second;
/// 3. a short grace (300 ms) lets the request of each connection accepted
///    last be read.
///
/// Then, in the module's turn to drain, the graceful shutdown begins: the
/// listener closes, and the requests in flight are answered. It costs
/// about 300 ms more shutdown.
final class Intake: Sendable {
    private let listener = Mutex<(any Channel)?>(nil)

    /// The listening channel, from `onServerRunning`.
    func listening(on channel: any Channel) {
        listener.withLock { $0 = channel }
    }

    /// Runs `app` until the host drains `context`'s module: stops the
    /// intake at the host's intake step, shuts `app` down gracefully at the
    /// drain, and returns once it has.
    func serve(_ app: some ApplicationProtocol, _ context: ModuleContext) async throws {
        // The app hears a graceful shutdown of its own, triggered in the
        // module's turn to drain.
        try await testGracefulShutdown { trigger in
            try await context.withDrainHandler {
                try await app.run()
            } onIntakeStop: {
                await self.stop()
            } onDrain: {
                trigger.triggerGracefulShutdown()
            }
        }
    }

    private func stop() async {
        guard let channel = listener.withLock({ $0 }), let socket = channel as? any SocketOptionProvider else { return }
        try? await socket.unsafeSetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_ATTACH_FILTER),
                                                value: DropEverything.program).get()
        for _ in 0..<100 {
            guard let info = try? await socket.getTCPInfo().get(), info.tcpi_unacked > 0 else { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        try? await Task.sleep(for: .milliseconds(300))
    }
}

/// A classic BPF program of one instruction, `ret #0`: every packet for the
/// socket is dropped. On a listener, that is every new connection's SYN.
private enum DropEverything {
    /// `struct sock_filter`.
    struct Instruction {
        var code: UInt16
        var jt: UInt8
        var jf: UInt8
        var k: UInt32
    }

    /// `struct sock_fprog`: setsockopt copies the instructions it points to.
    struct Program: @unchecked Sendable {
        var length: UInt16
        var instructions: UnsafeMutablePointer<Instruction>
    }

    static let program: Program = {
        let instructions = UnsafeMutablePointer<Instruction>.allocate(capacity: 1)
        instructions.initialize(to: Instruction(code: 0x06, jt: 0, jf: 0, k: 0))  // BPF_RET | BPF_K, 0
        return Program(length: 1, instructions: instructions)
    }()
}
