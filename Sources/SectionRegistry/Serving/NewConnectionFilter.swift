#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// A classic BPF program for a listening TCP socket that drops every
/// segment opening a new connection (SYN set, ACK not) and lets the rest
/// through.
///
/// The rest matters: Linux runs a listener's filter on every segment of a
/// handshake in progress too, and on the data that follows it. A filter that
/// dropped everything (this project's first) dropped the final ACK of a
/// handshake caught half-way, and the request the client sent after it: the
/// client counted the connection as open, the server never accepted it, and
/// the request was reset when the listener closed. With this one, that
/// handshake completes and its connection joins the accept queue the intake
/// empties.
///
/// On a TCP socket the filter sees the segment from its TCP header on: the
/// flags are byte 13.
enum NewConnectionFilter {
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

    /// Puts the filter on the listening socket `descriptor`; false if the
    /// kernel refused it.
    static func attach(to descriptor: CInt) -> Bool {
        var program = Self.program
        return setsockopt(descriptor, SOL_SOCKET, SO_ATTACH_FILTER, &program, socklen_t(MemoryLayout<Program>.size)) == 0
    }

    static let program: Program = {
        let code: [Instruction] = [
            Instruction(code: 0x30, jt: 0, jf: 0, k: 13),  // ldb [13]: the TCP flags
            Instruction(code: 0x54, jt: 0, jf: 0, k: 0x12),  // and #(SYN | ACK)
            Instruction(code: 0x15, jt: 0, jf: 1, k: 0x02),  // jeq #SYN: a new connection, else accept
            Instruction(code: 0x06, jt: 0, jf: 0, k: 0),  // ret #0: dropped
            Instruction(code: 0x06, jt: 0, jf: 0, k: 0xFFFF_FFFF),  // ret #-1: kept whole
        ]
        let instructions = UnsafeMutablePointer<Instruction>.allocate(capacity: code.count)
        instructions.initialize(from: code, count: code.count)
        return Program(length: UInt16(code.count), instructions: instructions)
    }()
}
#endif
