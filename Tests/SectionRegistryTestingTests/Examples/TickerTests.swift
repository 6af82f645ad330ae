import SectionRegistry
import SectionRegistryTesting
import Testing

/// Ticks until cancelled, and does not say so: it holds the drain to its limit.
struct Ticker: AppModule {
    func run(_ context: ModuleContext) async throws {
        while true { try await Task.sleep(for: .seconds(1)) }
    }
}

@Test func tickerHoldsTheDrainToItsLimit() async throws {
    try await withTestHost([ModuleDescriptor(name: "Ticker") { Ticker() }],
                           configuration: { $0.drainTimeLimit = .milliseconds(100) }) { test in
        let outcome = try await test.drain("Ticker")    // after 100 ms, not 30 s
        guard case .timedOut = outcome.result else { Issue.record("\(outcome)"); return }
    }
}
