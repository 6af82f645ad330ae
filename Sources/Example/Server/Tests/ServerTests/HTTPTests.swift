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
                $0.environment = ["PORT": "\(port)"]
            }, fakes: { context in
                try context.register(Routes.self) { Routes() }
            }) { _ in }
        }
        #expect(error?.description == "SectionRegistry: module 'HTTP' failed in run: cannot listen on 127.0.0.1:\(port): Address already in use "
            + "(errno 98): another process (or another module) listens there; stop it, or give this server another port (no module had started)")
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
            $0.environment = ["PORT": "0"]
            $0.lameDuckDelay = lameDuckDelay
        },
        fakes: { context in
            let routes = Routes()
            routes.add { $0.get("/ping") { _, _ in "pong" } }
            try context.register(Routes.self) { routes }
        }
    ) { test in
        let client = TestClient(host: "127.0.0.1", port: try readyPort(test))
        if connect { client.connect() }
        try await body(test, client)
        try? await client.shutdown()
    }
}
