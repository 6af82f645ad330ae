import Hummingbird
import HummingbirdTesting
import Routing
import SectionRegistry
import SectionRegistryTesting
import Testing
@testable import HTTP

/// HTTP alone, on a port of the kernel's choosing, with a fake of Routing's
/// service: it is ready once bound, serves the routes, and its plain
/// `try await app.run()` drains when the host asks (the ServiceLifecycle
/// trait), with nothing else written.
@Test func httpServesUntilTheHostDrainsIt() async throws {
    try await withTestHost(
        [ModuleDescriptor(name: "HTTP", level: .late) { HTTP() }],
        configuration: { $0.environment = ["PORT": "0"] },
        fakes: { context in
            let routes = Routes()
            routes.add { $0.get("/ping") { _, _ in "pong" } }
            try context.register(Routes.self) { routes }
        }
    ) { test in
        // "HTTP: ready on [IPv4]127.0.0.1/127.0.0.1:PORT", logged once bound.
        let ready = try #require(test.log.lines(of: "HTTP").first { $0.message.hasPrefix("HTTP: ready on") })
        let port = try #require(ready.message.split(separator: ":").last.flatMap { Int($0) })
        let client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        let response = try await client.get("/ping")
        #expect(response.status == .ok)
        #expect(response.body.map { String(buffer: $0) } == "pong")
        try await client.shutdown()

        let drained = try await test.drain("HTTP")
        #expect(!drained.isFailure, "\(drained)")
    }
}
