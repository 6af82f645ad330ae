import Contracts
import SectionRegistry

let host = ModuleHost(registry: try ModuleRegistry.linked())   // a failure here traps:
try await host.launch()                                        // catch it, as main() does

// Every handler, in start order; failures are reported, not thrown.
let report = await host.broadcast(DailyReport(day: "2026-11-21"))
for (module, line) in report.replies { print("\(module): \(line)") }
for (module, error) in report.failures { print("\(module) failed: \(error)") }

// The first handler that answers wins.
switch await host.firstHandler(for: OpenPath("/billing/42")) {
case .handled(let module, let reply, _): print("/billing/42 -> \(module): \(reply)")
case .unhandled: print("/billing/42 -> nobody")
}

// Everyone at once, each within the event's answer time limit.
for answer in await host.gather(HealthCheck()).answers {
    print("\(answer.module): \(answer.outcome)")
}

// Stop in reverse start order.
for stopped in await host.terminate() { print("stopped \(stopped.module)") }
