import SectionRegistry

/// Serves until the host drains it: the shape of a server's `run`.
struct Pinger: AppModule {
    func run(_ context: ModuleContext) async throws {
        let (requests, intake) = AsyncStream.makeStream(of: String.self)
        context.log("serving")
        await context.withDrainHandler {
            for await _ in requests {}     // a server's serve(): returns once shut down
        } onDrain: {
            intake.finish()                // a server's beginGracefulShutdown()
        }
        context.log("drained")
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("stopped")
    }
}
