import Foundation
import Hummingbird
import HummingbirdTesting
import Routing
import SectionRegistry
import SectionRegistryTesting
import Testing
@testable import HTTP

/// HTTP alone, on a port of the kernel's choosing, with a fake of Routing's
/// service: it is ready once bound, serves the routes, and drains when the
/// host asks.
@Test func httpServesUntilTheHostDrainsIt() async throws {
    try await withHTTP { test, client in
        let response = try await client.get("/ping")
        #expect(response.status == .ok)
        #expect(response.body.map { String(buffer: $0) } == "pong")
        #expect(response.headers[.connection] == nil)

        let drained = try await test.drain("HTTP")
        #expect(!drained.isFailure, "\(drained)")
    }
}

/// From the moment the shutdown begins, through the lame-duck delay, the
/// server still answers, and every answer says `Connection: close`.
@Test func responsesSayConnectionCloseOnceTheShutdownBegan() async throws {
    try await withHTTP(lameDuckDelay: .milliseconds(500)) { test, client in
        #expect(try await client.get("/ping").headers[.connection] == nil)
        async let stopped = test.stop()
        while test.host.isReady { try await Task.sleep(for: .milliseconds(5)) }
        let response = try await client.get("/ping")
        #expect(response.status == .ok)
        #expect(response.headers[.connection] == "close")
        #expect(await stopped.filter(\.isFailure).isEmpty)
    }
}

/// A connection accepted just before the stop, whose request has not come
/// yet: a plain graceful shutdown closes it as idle; the intake step waits
/// for its request, which is answered.
@Test func aConnectionAcceptedJustBeforeTheStopIsAnswered() async throws {
    try await withHTTP(connect: false) { test, client in
        client.connect()
        // Time for the handshake to complete before the stop, on a loaded
        // machine too (20 ms lost it once in CI, with builds on both cores:
        // the client's SYN then met the intake step's filter).
        try await Task.sleep(for: .milliseconds(200))
        async let stopped = test.stop()
        try await Task.sleep(for: .milliseconds(50))
        #expect(!test.host.isReady)
        let response = try await client.get("/ping")
        #expect(response.status == .ok)
        #expect(response.headers[.connection] == "close")
        #expect(await stopped.filter(\.isFailure).isEmpty)
    }
}

/// A connection half-way through its handshake when the intake step
/// begins: the client counts it as open and sends its request; the listener
/// has not yet seen the handshake's last ACK. The intake's filter lets that
/// ACK and the request in, and the intake waits for the handshake: the
/// request is answered. (A filter that dropped every segment dropped them,
/// and the request was reset when the listener closed.)
///
/// `TCP_DEFER_ACCEPT` on the listener holds a handshake there on purpose:
/// the kernel ignores the bare ACK and completes the handshake only with the
/// client's first data, so the connection is still half-way, `SYN_RECV` in
/// `/proc/net/tcp`, when the stop comes.
@Test func aRequestWhoseHandshakeIsInProgressAtTheIntakeStepIsAnswered() async throws {
    try await withHTTP(connect: false) { test, _ in
        let port = try readyPort(test)
        let listener = try #require(listeningSocket(port: port), "HTTP's listener among this process's descriptors")
        var seconds: CInt = 10
        #expect(setsockopt(listener, CInt(IPPROTO_TCP), TCP_DEFER_ACCEPT, &seconds, socklen_t(MemoryLayout<CInt>.size)) == 0)
        let client = try PlainClient(port: port)
        try #require(handshakesInProgress(port: port) == 1, "the client connected; the server holds the handshake: \(socketLines(port: port))")

        async let stopped = test.stop()
        while test.host.isReady { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        let response = try await blocking { try client.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        #expect(response.hasPrefix("HTTP/1.1 200 OK"), "\(response)")
        #expect(response.lowercased().contains("connection: close"), "\(response)")
        #expect(response.hasSuffix("pong"), "\(response)")
        #expect(await stopped.filter(\.isFailure).isEmpty)
    }
}

/// `health: .standard` answers the probes, and a balancer probing the
/// readiness route holds the lame duck (zero by default) until it was
/// answered 503 three times: only then does the intake stop take new
/// connections (a probe then gets none).
@Test func aBalancerProbingTheReadinessRouteHoldsTheLameDuckUntilItSawThreeNotReady() async throws {
    try await withHTTP { test, client in
        let port = try readyPort(test)
        let live = try await client.get("/health/live")
        #expect(live.status == .ok)
        let balancer = Task { await probeEvery(.milliseconds(100), port: port) }
        try await Task.sleep(for: .milliseconds(350))
        let outcomes = await test.stop()
        // The prober goes on past the intake step, to see it refused.
        try await Task.sleep(for: .milliseconds(300))
        balancer.cancel()
        let answers = await balancer.value
        #expect(outcomes.filter(\.isFailure).isEmpty)
        // 200s while ready, then 503s, then no connection: the intake
        // stopped only after the third 503.
        let statuses = answers.map { $0.map(String.init) ?? "none" }
        let ready = statuses.prefix { $0 == "200" }.count
        let notReady = statuses.dropFirst(ready).prefix { $0 == "503" }.count
        #expect(ready >= 2 && notReady >= 3, "\(statuses)")
        #expect(statuses.dropFirst(ready + notReady).allSatisfy { $0 == "none" }, "\(statuses)")
        #expect(statuses.last == "none", "\(statuses)")
    }
}

/// A probe seen once (a person's curl) is not a balancer: the lame duck does
/// not wait for it.
@Test func aSingleProbeDoesNotHoldTheLameDuck() async throws {
    try await withHTTP { test, client in
        let probe = try await client.get("/health/ready")
        #expect(probe.status == .ok)
        let began = ContinuousClock.now
        #expect(await test.stop().filter(\.isFailure).isEmpty)
        #expect(ContinuousClock.now - began < .milliseconds(900), "no balancer to wait for")
    }
}

/// A route added once the server built its responder would never be
/// served: the SharedRouter says so, with the fix, instead.
@Test func routesAddedAfterTheServerBuiltItsResponderAreAnError() throws {
    let routes = Routes()
    try routes.add { $0.get("/early") { _, _ in "early" } }
    _ = routes.responder()
    let error = #expect(throws: RoutesAddedTooLate.self) {
        try routes.add { $0.get("/late") { _, _ in "late" } }
    }
    #expect(error?.description.hasPrefix("routes were added to the SharedRouter after the server built its responder") == true)
}

/// A module that serves with `context.serve(_:)` but does not declare
/// `runReportsReady`: the host did not wait for it, and says so.
@Test func servingWithoutDeclaringReadinessIsWarnedAbout() async throws {
    struct Undeclared: AppModule {
        func run(_ context: ModuleContext) async throws {
            let router = Router()
            try await context.serve(Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))))
        }
    }
    try await withTestHost([ModuleDescriptor(name: "Undeclared") { Undeclared() }]) { test in
        var warning: LoggedLine?
        for _ in 0..<500 where warning == nil {
            try await Task.sleep(for: .milliseconds(10))
            warning = test.log.lines.first { $0.module == "Undeclared" && $0.level == .warning }
        }
        #expect(warning?.message == "SectionRegistry: module 'Undeclared' serves with context.serve(_:), which reports ready once its "
            + "server listens, but does not declare `var runReportsReady: Bool { true }`: the host did not wait for it, and the "
            + "modules after it may have started before it was ready. Declare it, so that they start once it serves.")
        // The message Mistakes.md quotes, whole, of a module named HTTP.
        let mistakes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../../SectionRegistry/SectionRegistry.docc/Mistakes.md")
        let quoted = warning?.message.replacingOccurrences(of: "module 'Undeclared'", with: "module 'HTTP'") ?? "no warning"
        #expect(try String(contentsOf: mistakes, encoding: .utf8).contains(quoted), "Mistakes.md quotes it")
    }
}

/// A port another server holds fails the launch, with an error that names
/// the address and the fix; HTTP, which never served, is not listed as
/// stopped.
@Test func aPortInUseFailsTheLaunchNamingTheAddress() async throws {
    try await withHTTP { test, _ in
        let port = try readyPort(test)
        let error = await #expect(throws: HostError.self) {
            try await withTestHost([ModuleDescriptor(name: "HTTP", level: .late) { HTTP() }], configuration: {
                $0.environment = ["HTTP_PORT": "\(port)"]
            }, fakes: { context in
                try context.register(Routes.self) { Routes() }
            }) { _ in }
        }
        #expect(error?.description == "SectionRegistry: module 'HTTP' failed in run: cannot listen on 127.0.0.1:\(port): Address already in use "
            + "(errno 98): another process (or another module) listens there; stop it, or give this server another port (no module had started)")
    }
}

/// This process's listening socket on `port`, found among its descriptors.
private func listeningSocket(port: Int) -> CInt? {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.compactMap { CInt($0) }.first { descriptor in
        var listening: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        var address = sockaddr_in()
        var addressLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1,
            withUnsafeMutablePointer(to: &address, {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &addressLength) }
            }) == 0
        else { return false }
        return Int(UInt16(bigEndian: address.sin_port)) == port
    }
}

/// The lines of `/proc/net/tcp` whose local port is `port`. Read with
/// `getline` to the end: `String(contentsOfFile:)` reads a procfs file's
/// first 4 KB only (about 27 sockets), and a busy machine lists more.
private func socketLines(port: Int) -> [String] {
    guard let stream = fopen("/proc/net/tcp", "r") else { return [] }
    defer { fclose(stream) }
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    var found: [String] = []
    while getline(&buffer, &capacity, stream) > 0, let buffer {
        let line = String(cString: buffer)
        let fields = line.split(separator: " ")
        if fields.count > 3, fields[1].hasSuffix(String(format: ":%04X", port)) { found.append(line) }
    }
    return found
}

/// The sockets on `port` in state `03`, `SYN_RECV`, told apart by their
/// remote address: a socket can be listed twice when the table changes
/// while it is read.
private func handshakesInProgress(port: Int) -> Int {
    Set(socketLines(port: port).map { $0.split(separator: " ") }.filter { $0[3] == "03" }.map { $0[2] }).count
}

/// Runs `work` on a thread of its own, and returns what it returns.
private func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// ``blocking(_:)`` for work that does not throw.
private func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// Probes `/health/ready` on a new connection every `interval`, as HAProxy
/// does, until cancelled: each probe's status, `nil` where no connection
/// was made within 200 ms (the intake's filter drops a new one's SYN).
private func probeEvery(_ interval: Duration, port: Int) async -> [Int?] {
    var answers: [Int?] = []
    while !Task.isCancelled {
        let response = await blocking {
            try? PlainClient(port: port, connectLimit: .milliseconds(200))
                .send("GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        }
        answers.append(response.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } })
        try? await Task.sleep(for: interval)
    }
    return answers
}

/// A blocking TCP client of 127.0.0.1, in plain system calls: connected
/// when made, it sends when told, and reads the response to its end. Used
/// through ``blocking(_:)``: a blocked call must not hold one of the few
/// threads the host's tasks run on.
private final class PlainClient: Sendable {
    let socket: CInt

    /// Connects to `port`; past `connectLimit` (SO_SNDTIMEO, which bounds
    /// `connect` on Linux), throws.
    init(port: Int, connectLimit: Duration = .seconds(5)) throws {
        socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        let microseconds = connectLimit.components.seconds * 1_000_000 + connectLimit.components.attoseconds / 1_000_000_000_000
        var connectTime = timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &connectTime, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(socket) }

    /// Sends `request`; returns what came back until the server closed the
    /// connection, or what came before an error (a reset).
    func send(_ request: String) throws -> String {
        guard write(socket, request, request.utf8.count) == request.utf8.count else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }
}

/// The port HTTP listens on, from its line "HTTP: ready on
/// [IPv4]127.0.0.1/127.0.0.1:PORT", logged once bound.
private func readyPort(_ test: TestHost) throws -> Int {
    let ready = try #require(test.log.lines(of: "HTTP").first { $0.message.hasPrefix("HTTP: ready on") })
    return try #require(ready.message.split(separator: ":").last.flatMap { Int($0) })
}

/// Runs `body` with HTTP launched on a port of the kernel's choosing,
/// serving `/ping`, and a client of it (connected, unless `connect` is
/// false).
///
/// HTTP is declared by hand, not `.linked("HTTP")`: its record comes after
/// Routing, whose service the test fakes instead.
private func withHTTP(
    lameDuckDelay: Duration = .zero, connect: Bool = true, _ body: (TestHost, TestClient) async throws -> Void
) async throws {
    try await withTestHost(
        [ModuleDescriptor(name: "HTTP", level: .late) { HTTP() }],
        configuration: {
            $0.environment = ["HTTP_PORT": "0"]
            $0.lameDuckDelay = lameDuckDelay
        },
        fakes: { context in
            let routes = Routes()
            try routes.add { $0.get("/ping") { _, _ in "pong" } }
            try context.register(Routes.self) { routes }
        }
    ) { test in
        let client = TestClient(host: "127.0.0.1", port: try readyPort(test))
        if connect { client.connect() }
        // Shut down on every path: a client dropped unshut traps in debug
        // ("leaking promise"), and the trap would hide the test's failure.
        do { try await body(test, client) } catch {
            try? await client.shutdown()
            throw error
        }
        try? await client.shutdown()
    }
}
