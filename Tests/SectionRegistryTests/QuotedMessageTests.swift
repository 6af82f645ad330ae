import SectionRegistryTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SectionRegistry

/// Every message of the engine that the articles and the README quote is
/// one the engine prints: each is provoked, here or by the test named in
/// ``checkedElsewhere``, and compared with the quote (``ArticleQuotes``).
/// A quote no test provokes fails ``everyQuoteIsProvokedByATest()``.
@Suite(.serialized, .timeLimit(.minutes(5))) struct QuotedMessageTests {
    /// Quotes whose message takes a real process, a signal, a trait or a
    /// broken build to provoke: the test named compares it.
    static let checkedElsewhere: [(start: String, test: String)] = [
        ("`app_module_Billing` (in /path/App) does not return", "MistakeTests.aFactoryOfTheWrongTypeIsNamedNotCalledBlindly"),
        ("`app_module_Billing` (in /path/App) was built against another copy", "MistakeTests.aHandleMadeByAnotherCopyOfSectionRegistryIsRefused"),
        ("Toolbox's subcommands leave out", "ArgumentParserTests.aRootThatDoesNotListTheOffersIsALoudError (ArgumentParser trait)"),
        ("module 'HTTP' serves with context.serve(_:)", "the server example's HTTPTests.servingWithoutDeclaringReadinessIsWarnedAbout (Hummingbird trait)"),
        ("another library put its handler of SIGTERM", "StressTests.aHandlerAnotherLibraryPutsOverTheHostsIsTakenBackAndCalledToo"),
        ("SIGTERM was taken in this process", "StressTests.aSignalTakenBeforeTheHostServesItIsAWarningNamingTheFix"),
        ("refusing to load plugin /opt/app/plugins/libReports.so: folder", "PluginTrustTests.aPluginInAFolderEveryUserMayWriteIsRefusedAndLoadsOnceTheFolderIsFixed"),
        ("module 'Orders' failed in setUp", "ConfigurationTests.aMissingRequiredValueFailsSetUpNamingTheModuleTheKeyAndEachProvider (Configuration trait)"),
        ("configuration: orders.database.port", "ConfigurationTests.aValueNotOfItsTypeThatAReadWithADefaultPassesOverIsLoggedOnce (Configuration trait)"),
        ("the configuration changed", "ConfigurationTests.aChangeOfTheConfigurationCallsTheReloadHooks (Configuration trait)"),
        ("the host's configuration", "ConfigurationTests.aHostSettingNotOfItsTypeFailsTheLaunchNamingTheKeyAndProvider (Configuration trait)"),
        ("refusing to load plugin /opt/app/plugins/libReports.so: file", "PluginTrustTests.aPluginOrAFolderOwnedByAnotherUserIsRefused (as root)"),
    ]

    /// The starts of the quotes this suite provokes.
    static let provokedHere = [
        "the modules cannot be ordered", "module 'C' failed in start", "module 'Ticker' failed in run",
        "module 'Ticker' did not finish its run", "module 'HTTP' failed in run: its run did not report",
        "module 'HTTP' called context.reportReady()", "SIGINT, stopping modules", "stopped: Billing, Accounts",
    ]

    @Test func everyQuoteIsProvokedByATest() {
        let starts = Self.provokedHere + Self.checkedElsewhere.map(\.start)
        for article in ArticleQuotes.articles {
            for quote in ArticleQuotes.quotes(in: article) where !starts.contains(where: quote.hasPrefix) {
                Issue.record("\(article) quotes \"\(quote)\", which no test provokes: add it to QuotedMessageTests")
            }
        }
    }

    struct Failing: Error, CustomStringConvertible {
        let description: String
    }

    struct Plain: AppModule {}

    struct FailsToStart: AppModule {
        func start(_ context: ModuleContext) async throws { throw Failing(description: "disk full") }
    }

    struct Store: AppModule {
        func stop(_ context: ModuleContext) async throws {}
    }

    /// Jams 50 ms after it begins.
    struct Ticker: AppModule {
        func run(_ context: ModuleContext) async throws {
            try await Task.sleep(for: .milliseconds(50))
            throw Failing(description: "the ticker jammed")
        }
    }

    /// Hears nothing of the drain, for 2.5 s.
    struct Deaf: AppModule {
        func run(_ context: ModuleContext) async throws {
            await sleepIgnoringCancellation(.milliseconds(2500))
        }
    }

    /// Ends its work by cancellation, and the work swallows it, for 2.5 s.
    struct Swallowing: AppModule {
        func run(_ context: ModuleContext) async throws {
            try await context.cancelOnDrain {
                await sleepIgnoringCancellation(.milliseconds(2500))
            }
        }
    }

    /// Declares it reports ready, and never does.
    struct NeverReady: AppModule {
        var runReportsReady: Bool { true }
        func run(_ context: ModuleContext) async throws { try await Task.sleep(for: .seconds(3600)) }
    }

    /// Reports ready without declaring it.
    struct Undeclared: AppModule {
        func run(_ context: ModuleContext) async throws {
            context.reportReady()
            try await context.cancelOnDrain { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    func launchError(_ modules: [ModuleDescriptor], _ configure: (inout HostConfiguration) -> Void = { _ in }) async -> String {
        do {
            try await withTestHost(modules, configuration: configure) { _ in }
            return "launched"
        } catch {
            return "\(error)"
        }
    }

    @Test func aGraphThatCannotBeOrdered() async {
        let printed = await launchError([
            ModuleDescriptor(name: "A", after: ["C"]) { Plain() },
            ModuleDescriptor(name: "B", after: ["A"]) { Plain() },
            ModuleDescriptor(name: "C", after: ["B"]) { Plain() },
        ])
        for article in ["Lifecycle.md", "Mistakes.md"] {
            ArticleQuotes.expectQuoted(in: article, startingWith: "the modules cannot be ordered", printed: printed)
        }
    }

    @Test func aStartThatFails() async {
        let printed = await launchError([
            ModuleDescriptor(name: "A") { Store() },
            ModuleDescriptor(name: "B", after: ["A"]) { Store() },
            ModuleDescriptor(name: "C", after: ["B"]) { FailsToStart() },
        ])
        ArticleQuotes.expectQuoted(in: "Lifecycle.md", startingWith: "module 'C' failed in start", printed: printed)
    }

    @Test func aRunThatFailsOnceLaunched() async throws {
        let log = LogRecorder()
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [
            ModuleDescriptor(name: "Store", level: .service) { Store() },
            ModuleDescriptor(name: "Ticker") { Ticker() },
        ]), configuration: testConfiguration { $0.log = log.handler() })
        try await host.launch()
        _ = await host.waitUntilFinal()
        let logged = log.lines.map(\.message).joined(separator: "\n")
        ArticleQuotes.expectQuoted(in: "Lifecycle.md", startingWith: "module 'Ticker' failed in run, stopping every module", printed: logged)
        let thrown = await host.failedRunError().map { "\($0)" } ?? "nothing"
        ArticleQuotes.expectQuoted(in: "Lifecycle.md", startingWith: "module 'Ticker' failed in run: the ticker jammed", printed: thrown)
    }

    /// What the host logged while `module`, named Ticker, was stopped with
    /// a drain limit of 1 s: long enough for the drain to reach the run
    /// on a machine loaded with builds (past the limit before the run is
    /// asked, nobody held the drain, and no warning names one).
    func drainWarnings(of module: @escaping @Sendable () -> any AppModule) async throws -> String {
        try await withTestHost([ModuleDescriptor(name: "Ticker", make: module)], configuration: {
            $0.drainTimeLimit = .seconds(1)
            $0.stopTimeLimit = .milliseconds(100)
        }) { test in
            _ = await test.stop()
            return test.log.lines.filter { $0.level == .warning }.map(\.message).joined(separator: "\n")
        }
    }

    @Test func aRunThatHoldsTheDrain() async throws {
        let printed = try await drainWarnings { Deaf() }
        ArticleQuotes.expectQuoted(in: "Lifecycle.md", startingWith: "module 'Ticker' did not finish its run", printed: printed)
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "module 'Ticker' did not finish its run within the drain limit (30.0 seconds) after",
                                   printed: printed)
    }

    @Test func aRunWhoseWorkSwallowsItsCancellation() async throws {
        let printed = try await drainWarnings { Swallowing() }
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "module 'Ticker' did not finish its run within the drain limit (30.0 seconds):",
                                   printed: printed)
    }

    @Test func aRunThatNeverReportsReady() async {
        let printed = await launchError([
            ModuleDescriptor(name: "Database", level: .service) { Store() },
            ModuleDescriptor(name: "HTTP", level: .late) { NeverReady() },
        ]) { $0.readinessTimeLimit = .milliseconds(100) }
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "module 'HTTP' failed in run: its run did not report", printed: printed)
    }

    @Test func aReportOfReadinessNotDeclared() async throws {
        try await withTestHost([ModuleDescriptor(name: "HTTP") { Undeclared() }]) { test in
            var printed = ""
            for _ in 0..<200 where printed.isEmpty {
                try await Task.sleep(for: .milliseconds(10))
                printed = test.log.lines.filter { $0.level == .warning }.map(\.message).joined(separator: "\n")
            }
            ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "module 'HTTP' called context.reportReady()", printed: printed)
        }
    }

    /// The README's Ctrl-C, as `run()`'s signal loop hands it over.
    @Test func aSIGINT() async throws {
        let log = LogRecorder()
        let host = ModuleHost(registry: try ModuleRegistry(declaring: [
            ModuleDescriptor(name: "Accounts", level: .service) { Plain() },
            ModuleDescriptor(name: "Billing", level: .service, priority: 10, after: ["Accounts"]) { Plain() },
        ]), configuration: testConfiguration { $0.log = log.handler(logLevel: .info) })
        try await host.launch()
        host.requestStop(.signal(SIGINT))
        _ = await host.waitUntilFinal()
        let printed = log.lines.map(\.message).joined(separator: "\n")
        ArticleQuotes.expectQuoted(in: "README.md", startingWith: "SIGINT, stopping modules", printed: printed)
        ArticleQuotes.expectQuoted(in: "README.md", startingWith: "stopped: Billing, Accounts", printed: printed)
    }
}
