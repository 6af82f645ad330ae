#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel holds for this process's TCP listener on a port, read
/// where Linux publishes it, so that any server's listener can be stopped
/// without a handle from the server's own library (NIO's channel, Vapor's
/// private one).
///
/// `/proc/net/tcp` and `/proc/net/tcp6` list every socket of the network
/// namespace, one line each: `sl local_address rem_address st
/// tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...`, the port
/// in hexadecimal after the local address's colon. A listener is state
/// `0A`, and its `rx_queue` is its accept queue's length; a handshake
/// half-way (the server answered the SYN, the client's ACK has not come) is
/// state `03`, in neither the accept queue nor `TCP_INFO`. This process's
/// own sockets are the links `socket:[inode]` in `/proc/self/fd`.
///
/// The files list every socket, so they are read at the intake step only:
/// every 10 ms, for at most a second.
struct ListeningSocket {
    let port: Int

    /// This process's descriptors listening on ``port``.
    func descriptors() -> [CInt] {
        let inodes = Set(lines().filter { $0.state == "0A" }.map(\.inode))
        guard !inodes.isEmpty, let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var found: [CInt] = []
        var target = [CChar](repeating: 0, count: 64)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = CInt(name) else { continue }
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            guard length > 0 else { continue }
            let link = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // "socket:[12345]"
            if link.hasPrefix("socket:["), inodes.contains(String(link.dropFirst(8).dropLast())) {
                found.append(descriptor)
            }
        }
        return found
    }

    /// The connections not yet accepted: handshakes half-way, and those in
    /// the accept queue of this process's listeners (`descriptors`' inodes
    /// are not needed: another process's listener on the port is empty
    /// unless it shares the port, and then it is waited for too).
    func pendingConnections() -> Int {
        lines().reduce(0) { pending, line in
            switch line.state {
            case "03": pending + 1
            case "0A": pending + line.acceptQueue
            default: pending
            }
        }
    }

    /// A line of the files, for a socket whose local port is ``port``.
    private struct Line {
        var state: Substring
        var acceptQueue: Int
        var inode: String
    }

    private func lines() -> [Line] {
        lines(in: "/proc/net/tcp") + lines(in: "/proc/net/tcp6")
    }

    private func lines(in file: String) -> [Line] {
        guard let stream = fopen(file, "r") else { return [] }
        defer { fclose(stream) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var found: [Line] = []
        while getline(&buffer, &capacity, stream) > 0, let buffer {
            let fields = String(cString: buffer).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let local = fields[1].split(separator: ":").last, Int(local, radix: 16) == port else { continue }
            let queue = fields[4].split(separator: ":").last.flatMap { Int($0, radix: 16) } ?? 0
            found.append(Line(state: fields[3], acceptQueue: queue, inode: String(fields[9])))
        }
        return found
    }
}
#endif
