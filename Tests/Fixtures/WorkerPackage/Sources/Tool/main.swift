import SectionRegistry
#if canImport(Glibc)
import Glibc
#endif

// A one-shot program of the same modules, under ModuleHost.main's work
// entry point. TOOL_WORK says what its work does:
//   print (the default): prints the running modules, returns 0;
//   wait: awaits an hour, until cancelled;
//   block: blocks its thread for 30 s, deaf to cancellation (it says once
//          that it saw it);
//   throw: throws; exit5: returns 5.
// TOOL_CANCEL_LIMIT: the cancelled work's time limit, in seconds.
struct ToolFailed: Error, CustomStringConvertible {
    var description: String { "the tool failed on purpose" }
}

func say(_ line: String) {
    print(line)
    fflush(nil)
}

var configuration = HostConfiguration.commandLine
configuration.stopTimeLimit = .milliseconds(300)
if let limit = getenv("TOOL_CANCEL_LIMIT").flatMap({ Int(String(cString: $0)) }) {
    configuration.cancelledWorkTimeLimit = .seconds(limit)
}
await ModuleHost.main(configuration: configuration) { host in
    switch getenv("TOOL_WORK").map({ String(cString: $0) }) ?? "print" {
    case "wait":
        say("work: waiting")
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            say("work: cancelled")
            throw error
        }
        return 0
    case "block":
        say("work: blocking")
        var saidCancelled = false
        for _ in 0..<600 {
            usleep(50_000)
            if Task.isCancelled && !saidCancelled {
                say("work: cancelled, going on")
                saidCancelled = true
            }
        }
        say("work: unblocked")
        return 0
    case "throw":
        throw ToolFailed()
    case "exit5":
        return 5
    default:
        say("work: running \(await host.runningModules.joined(separator: ", "))")
        return 0
    }
}
