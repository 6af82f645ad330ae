import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ModuleRecords
@testable import SectionRegistry

/// Lifecycle.md's "Shutdown, step by step", run: the modules it describes,
/// the signals it sends, and what happens, compared line by line with each
/// of its blocks. The signal enters where the signal loop hands it over
/// (`requestStop(.signal(SIGTERM))`, as `run()` does); that a real SIGTERM reaches it is
/// `ExampleProcessTests`' part.
@Suite(.timeLimit(.minutes(5))) struct ShutdownWalkthroughTests {
    /// Lifecycle.md's "Shutdown, step by step", to the next section.
    static func walkthrough() throws -> String {
        try #require(ArticleQuotes.text(of: "Lifecycle.md").components(separatedBy: "## Shutdown, step by step\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
    }

    /// The walk-through's blocks of lines, in the order written.
    static func walkthroughBlocks() throws -> [[String]] {
        let section = try walkthrough()
        return section.components(separatedBy: "```text\n").dropFirst().map { block in
            block.components(separatedBy: "```")[0].split(separator: "\n").map(String.init)
        }
    }

    /// The walk-through's prose, without its blocks: each claim, a
    /// paragraph or a bullet.
    static func walkthroughClaims() throws -> [String] {
        let section = try walkthrough()
        var prose = ""
        for (index, part) in section.components(separatedBy: "```").enumerated() where index % 2 == 0 { prose += part }
        return prose.components(separatedBy: "\n- ").dropFirst().map { $0.components(separatedBy: "\n\n")[0] }
            + [try #require(prose.components(separatedBy: "### Cutting a shutdown short\n\n").dropFirst().first)]
    }

    /// Runs `Store` and `Worker` as the walk-through says, sends SIGTERM,
    /// and a second one once `Worker` was asked to drain if
    /// `secondSignal`; `Worker`'s `run` returns when asked to drain if
    /// `returnsOnDrain`.
    ///
    /// - Returns: the lines the walk-through would write of what happened.
    func walk(returnsOnDrain: Bool, secondSignal: Bool) async throws -> [String] {
        let journal = Journal()
        let box = HostBox()
        let (asked, ask) = AsyncStream.makeStream(of: Void.self)
        let host = ModuleHost(registry: try declare([
            asking("Store", journal: journal) { module in
                module.onStop = { journal.add("Store: stop hook") }
            },
            asking("Worker", after: ["Store"], journal: journal) { module in
                module.onStop = { journal.add("Worker: stop hook") }
                module.work = { context in
                    let (drain, drained) = AsyncStream.makeStream(of: Void.self)
                    await context.withDrainHandler {
                        for await _ in drain {}
                    } onDrain: {
                        journal.add("status: \(box.value.status)")
                        journal.add("Worker: asked to drain, the host ready: \(context.isHostReady)")
                        ask.yield()
                        if returnsOnDrain { drained.finish() }
                    }
                    guard returnsOnDrain else {
                        try await Task.sleep(for: .seconds(3600))  // holds the drain; cancelled when cut off
                        return
                    }
                    do throws(HostError) {
                        try await box.value.remove("Store")
                        journal.add("Worker: remove(\"Store\") was not refused")
                    } catch {
                        journal.add("Worker: remove(\"Store\") refused at once: \(error.code)")
                    }
                    journal.add("Worker: run returned")
                }
            },
        ]), configuration: testConfiguration {
            $0.servesSignals = false  // the signal is handed over below, where the signal loop would
            $0.drainTimeLimit = .seconds(3600)
            $0.stopTimeLimit = .seconds(3600)
        })
        box.set(host)
        let running = Task { try await host.run() }
        guard await host.waitUntilRunning() else {
            Issue.record("not running: \(host.status)")
            return []
        }
        var lines = ["status: \(host.status)", "SIGTERM"]
        host.requestStop(.signal(SIGTERM))
        if secondSignal {
            for await _ in asked { break }
            journal.add("SIGTERM")
            host.requestStop(.signal(SIGTERM))
        }
        try await running.value
        // The walk-through's lines, not the journal's own ("start Worker", ...).
        lines += journal.entries.filter { $0 == "SIGTERM" || $0.contains(": ") }
        lines += ["status: \(host.status)", "exit status: \(ProgramEnd(of: .service, final: host.status, stopReason: host.stopReason, failedRun: await host.failedRunError()).status)"]
        return lines
    }

    /// Each claim of the prose names, in brackets, the tests that prove it
    /// (`[`Suite.test`]`), and each of them is a test of this target.
    @Test func everyClaimOfTheProseNamesTheTestsThatProveIt() throws {
        let claims = try Self.walkthroughClaims()
        #expect(claims.count >= 7, "the bullets and the cut-short paragraph: \(claims.count)")
        for claim in claims {
            let named = claim.matches(of: /`([A-Z][A-Za-z]+Tests)\.([a-z][A-Za-z]+)`/).map { (String($0.1), String($0.2)) }
            #expect(!named.isEmpty, "a claim with no test named: \(claim)")
            for (suite, test) in named {
                let file = packageRoot.appendingPathComponent("Tests/SectionRegistryTests/\(suite).swift")
                let source = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                #expect(source.contains("func \(test)("), "Lifecycle.md names \(suite).\(test), which Tests/SectionRegistryTests/\(suite).swift does not have")
            }
        }
    }

    @Test func sigtermDrainsRefusesTheDrainingRunsRequestThenStopsAndExitsZeroAsWritten() async throws {
        let blocks = try Self.walkthroughBlocks()
        try #require(blocks.count == 2, "Lifecycle.md's walk-through has two blocks")
        let happened = try await walk(returnsOnDrain: true, secondSignal: false)
        #expect(happened == blocks[0])
    }

    @Test func aSecondSigtermCutsTheDrainShortSkipsTheStopHooksAndExitsThreeAsWritten() async throws {
        let blocks = try Self.walkthroughBlocks()
        try #require(blocks.count == 2, "Lifecycle.md's walk-through has two blocks")
        let happened = try await walk(returnsOnDrain: false, secondSignal: true)
        #expect(happened == blocks[1])
    }
}
