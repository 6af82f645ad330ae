import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SectionRegistry

/// Every entry point ends through `ProgramEnd`: one table, the one
/// Lifecycle.md's "Exit statuses" prints, each row checked here.
@Suite struct ProgramEndTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    static let unclean = HookOutcome(module: "Store", phase: .stop, result: .timedOut, duration: .zero, start: .now)
    static let failedLaunch = HostError.moduleFailed("Store", in: .start, error: Failure(), rollback: [])
    static let failedRun = HostError.moduleFailed("Worker", in: .run, error: Failure(), rollback: [])

    struct Row: Sendable, CustomStringConvertible {
        let description: String
        let entry: @Sendable () -> ProgramEnd.Kind
        let final: HostStatus
        let stopReason: StopReason?
        var failedRun: HostError? = nil
        let expected: ProgramEnd
    }

    static let rows: [Row] = [
        Row(description: "service, stopped cleanly by SIGTERM", entry: { .service }, final: .stopped(failures: []), stopReason: .signal(SIGTERM),
            expected: ProgramEnd(status: 0)),
        Row(description: "service, stopped not cleanly", entry: { .service }, final: .stopped(failures: [unclean]), stopReason: .signal(SIGTERM),
            expected: ProgramEnd(status: 3)),
        Row(description: "service, launch failed", entry: { .service }, final: .launchFailed(failedLaunch), stopReason: nil,
            expected: ProgramEnd(status: 1, message: "\(failedLaunch)")),
        Row(description: "service, launch cancelled by SIGTERM, clean", entry: { .service }, final: .launchFailed(.cancelled(rollback: [])),
            stopReason: .signal(SIGTERM), expected: ProgramEnd(status: 0)),
        Row(description: "service, launch cancelled, rollback unclean", entry: { .service }, final: .launchFailed(.cancelled(rollback: [unclean])),
            stopReason: .terminate, expected: ProgramEnd(status: 3)),
        Row(description: "service, a run failed", entry: { .service }, final: .stopped(failures: []), stopReason: .runFailed("Worker"),
            failedRun: failedRun, expected: ProgramEnd(status: 1, message: "\(failedRun)")),
        Row(description: "command, the work returned 0", entry: { .command(.success(0)) }, final: .stopped(failures: []), stopReason: .terminate,
            expected: ProgramEnd(status: 0)),
        Row(description: "command, the work returned 0, unclean", entry: { .command(.success(0)) }, final: .stopped(failures: [unclean]),
            stopReason: .terminate, expected: ProgramEnd(status: 3)),
        Row(description: "command, the work returned 5", entry: { .command(.success(5)) }, final: .stopped(failures: [unclean]),
            stopReason: .terminate, expected: ProgramEnd(status: 5)),
        Row(description: "command, SIGINT", entry: { .command(.failure(CancellationError())) }, final: .stopped(failures: []),
            stopReason: .signal(SIGINT), expected: ProgramEnd(status: 130)),
        Row(description: "command, SIGTERM, work left behind", entry: { .command(nil) }, final: .stopped(failures: [unclean]),
            stopReason: .signal(SIGTERM), expected: ProgramEnd(status: 143)),
        Row(description: "command, SIGTERM during launch", entry: { .command(nil) }, final: .launchFailed(.cancelled(rollback: [])),
            stopReason: .signal(SIGTERM), expected: ProgramEnd(status: 143)),
        Row(description: "command, launch failed", entry: { .command(nil) }, final: .launchFailed(failedLaunch), stopReason: .signal(SIGTERM),
            expected: ProgramEnd(status: 1, message: "\(failedLaunch)")),
        Row(description: "command, a module asked during launch", entry: { .command(nil) }, final: .launchFailed(.cancelled(rollback: [])),
            stopReason: .moduleRequest("Store"), expected: ProgramEnd(status: 0)),
        Row(description: "command, cancelled because a module asked", entry: { .command(.failure(CancellationError())) },
            final: .stopped(failures: []), stopReason: .moduleRequest("Store"), expected: ProgramEnd(status: 0)),
        Row(description: "command, the work threw", entry: { .command(.failure(Failure())) }, final: .stopped(failures: []),
            stopReason: .terminate, expected: ProgramEnd(status: 1, message: "disk full")),
        Row(description: "command, the work left behind", entry: { .command(nil) }, final: .stopped(failures: []), stopReason: .moduleRequest(nil),
            expected: ProgramEnd(status: 1)),
        Row(description: "command, a run failed", entry: { .command(.failure(CancellationError())) }, final: .stopped(failures: []),
            stopReason: .runFailed("Worker"), failedRun: failedRun, expected: ProgramEnd(status: 1, message: "\(failedRun)")),
    ]

    @Test(arguments: rows) func eachEntryPointEndsAsTheTableSays(_ row: Row) {
        let end = ProgramEnd(of: row.entry(), final: row.final, stopReason: row.stopReason, failedRun: row.failedRun)
        #expect(end == row.expected, "\(row.description)")
    }
}
