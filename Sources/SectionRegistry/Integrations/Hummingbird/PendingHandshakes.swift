#if Hummingbird && os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// How many connections to a local port are half-way through their
/// handshake (`SYN_RECV`): the server answered the client's SYN, and the
/// client's ACK has not reached the listener yet.
///
/// They are in neither the accept queue nor `TCP_INFO`: Linux lists them,
/// one line each, in `/proc/net/tcp` and `/proc/net/tcp6`, state `03`. The
/// intake waits for them as it waits for the accept queue: the client of
/// each has, or will have at once, a connection it counts as open.
///
/// The files list every socket of the network namespace, so they are read
/// at the intake step only: every 10 ms, for at most a second, and not
/// again once no handshake is in progress.
enum PendingHandshakes {
    static func count(port: Int) -> Int {
        count(port: port, in: "/proc/net/tcp") + count(port: port, in: "/proc/net/tcp6")
    }

    /// The lines of `file` whose local port is `port` and state `03`:
    /// `sl local_address rem_address st ...`, the address `HEX:PORT` in
    /// hexadecimal.
    private static func count(port: Int, in file: String) -> Int {
        guard let stream = fopen(file, "r") else { return 0 }
        defer { fclose(stream) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var pending = 0
        while getline(&line, &capacity, stream) > 0, let line {
            let fields = String(cString: line).split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
            guard fields.count >= 4, fields[3] == "03",
                let local = fields[1].split(separator: ":").last, Int(local, radix: 16) == port
            else { continue }
            pending += 1
        }
        return pending
    }
}
#endif
