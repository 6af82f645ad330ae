#if Hummingbird
#if canImport(Glibc)
import Glibc
#endif
import HummingbirdCore
import NIOCore

/// The server could not listen on its address: what ``ModuleContext/serve(_:)``
/// throws in place of NIO's `IOError`, which names the system call but not
/// the address (`bind(descriptor:ptr:bytes:): Address already in use)
/// (errno: 98)`, its closing parenthesis NIO's own).
struct ListenFailure: Error, CustomStringConvertible {
    /// The address the application's configuration gives, as a user wrote
    /// it: `127.0.0.1:8080`, or a socket's path.
    let address: String
    let errno: CInt

    init(address: BindAddress, errno: CInt) {
        self.address = Self.text(of: address)
        self.errno = errno
    }

    var description: String {
        let reason = "cannot listen on \(address): \(String(cString: strerror(errno))) (errno \(errno))"
        switch errno {
        case EADDRINUSE:
            return reason + ": another process (or another module) listens there; stop it, or give this server another port"
        case EACCES:
            return reason + ": a port below 1024 needs privileges; use a higher port"
        case EADDRNOTAVAIL:
            return reason + ": no network interface of this machine has that address; listen on one it has, or on 0.0.0.0"
        default:
            return reason
        }
    }

    /// `host:port`, or the socket's path. Hummingbird keeps a `BindAddress`'s
    /// parts internal and gives it no description: they are read by
    /// reflection, and an address of another shape is written as Swift
    /// would.
    private static func text(of address: BindAddress) -> String {
        guard let value = Mirror(reflecting: address).children.first?.value,
              let shape = Mirror(reflecting: value).children.first
        else { return "\(address)" }
        let parts = Mirror(reflecting: shape.value).children.map(\.value)
        switch (shape.label, parts.count) {
        case ("hostname", 2): return "\(parts[0]):\(parts[1])"
        case ("unixDomainSocket", _): return "\(shape.value)"
        default: return "\(address)"
        }
    }
}
#endif
