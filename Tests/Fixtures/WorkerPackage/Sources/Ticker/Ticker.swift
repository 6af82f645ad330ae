import SectionRegistry

@c(app_module_Ticker) func makeTicker() -> AppModuleHandle { AppModuleHandle(Ticker()) }

struct TickerJammed: Error, CustomStringConvertible {
    var description: String { "the ticker jammed" }
}

/// Ticks every 50 ms until the drain cancels its loop. WORKER_JAM_AFTER=N:
/// the run throws after N ticks.
struct Ticker: AppModule {
    func run(_ context: ModuleContext) async throws {
        let jamAfter = context.environment["WORKER_JAM_AFTER"].flatMap { Int($0) }
        try await context.cancelOnDrain {
            for tick in 1... {
                do {
                    try await Task.sleep(for: .milliseconds(50))
                } catch {
                    context.log("Ticker: cancelled after \(tick - 1) ticks")
                    throw error
                }
                context.log("Ticker: tick \(tick)")
                if tick == jamAfter { throw TickerJammed() }
            }
        }
    }

    func stop(_ context: ModuleContext) async throws {
        context.log("Ticker: stopped")
    }
}
