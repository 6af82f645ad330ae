// serve-bench: one module, Hello, that answers GET /hello with "hello\n" on
// 127.0.0.1 and the port SERVE_BENCH_PORT (0, the default, picks one), and
// prints `serve-bench: port PORT` once it listens. SERVE_BENCH_RUN says how it
// runs its application:
//   serve  `try await context.serve(app)` (the Hummingbird trait's run)
//   plain  `try await app.run()`, the same application as Hummingbird runs it
// Everything else (the host, the module, the application, the route) is the
// same, so that the difference of two runs that answer the same requests is
// what `serve` adds to each. SIGTERM stops it. scripts/serve-bench.sh runs it
// under callgrind.
import Foundation
import Hummingbird
import SectionRegistry

@c(app_module_Hello) func makeHello() -> AppModuleHandle { AppModuleHandle(Hello()) }

struct Hello: AppModule {
    /// `serve` or `plain`.
    static let way = ProcessInfo.processInfo.environment["SERVE_BENCH_RUN"] ?? "serve"

    var runReportsReady: Bool { Self.way == "serve" }

    func run(_ context: ModuleContext) async throws {
        let router = Router()
        router.get("hello") { _, _ in "hello\n" }
        let port = Int(ProcessInfo.processInfo.environment["SERVE_BENCH_PORT"] ?? "0") ?? 0
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                print("serve-bench: port \(channel.localAddress?.port ?? 0)")
                fflush(nil)  // stdout is a pipe: the line goes now, not at exit
            }
        )
        switch Self.way {
        case "serve": try await context.serve(app)
        case "plain": try await app.run()
        default: fatalError("serve-bench: SERVE_BENCH_RUN is \(Self.way); it takes serve or plain")
        }
    }
}

await ModuleHost.main()
