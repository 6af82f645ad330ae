import Contracts
import SectionRegistry

let host = ModuleHost(registry: try ModuleRegistry.linked())   // a failure here traps:
try await host.launch()                                        // catch it, as main() does

// Every handler, in start order; failures are reported, not thrown.
let report = await host.broadcast(DailyReport(day: "2026-11-21"))
for (module, line) in report.replies { print("\(module): \(line)") }
for (module, error) in report.failures { print("\(module) failed: \(error)") }

// The first handler that answers wins.
if let (module, reply) = await host.firstHandler(for: OpenPath("/billing/42")).firstReply {
    print("/billing/42 -> \(module): \(reply)")
} else {
    print("/billing/42 -> nobody")
}

// Everyone at once, each within the event's answer time limit.
for (module, outcome) in await host.gather(HealthCheck()).answers {
    print("\(module): \(outcome)")
}

// Stop every module, in reverse start order. terminate() returns how the
// stop hooks the modules write ended; these two write none.
let running = await host.runningModules
await host.terminate()
for module in running.reversed() { print("stopped \(module)") }
