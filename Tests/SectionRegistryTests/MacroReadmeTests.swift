#if Macros
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The README's "Add a module from Swift" package (Tests/Fixtures/
/// ReadmeMacroPackage): one target per feature, registered with
/// `@AppModule`, built with the Macros trait and run; its records are
/// checked as a C registration's are.
@Suite(.serialized) struct MacroReadmeTests {
    let package = packageRoot.appendingPathComponent("Tests/Fixtures/ReadmeMacroPackage")

    @Test func theAttributeRegisteredAppRunsAndStopsGracefully() async throws {
        let binary = try await builtProduct("App", packagePath: package, scratch: "readme-macros")
        let app = try ExampleProcessTests.RunningExample(binary, arguments: [])
        defer { if app.process.isRunning { app.send(SIGKILL) } }
        try await ReadmeTests().waitUntilCatching(SIGTERM, pid: app.process.processIdentifier)
        app.send(SIGTERM)
        #expect(await app.exitStatus() == 0, "\(app.text)")
        #expect(app.text.contains("Billing: billing ada, grace"), "\(app.text)")
        #expect(app.text.hasSuffix("INFO SectionRegistry: stopped: Billing, Accounts\n"), "\(app.text)")

        let sections = try await runCommand(["readelf", "-p", "app_modules", binary]).output
        #expect(sections.contains("Billing") && sections.contains("Accounts/Accounts.swift"), "\(sections)")
        let script = try await runCommand([verifySectionsScript, binary, "Accounts", "Billing"])
        #expect(script.status == 0, "\(script.output)")
    }

    @Test func checkModulesPassesTheAttributeRegisteredModules() async throws {
        let scratch = packageRoot.appendingPathComponent(".build-tests/readme-macros").path
        let check = try await runCommand([
            "swift", "package", "--package-path", package.path, "--scratch-path", scratch,
            "check-modules", "--product", "App", "--expect", "Billing", "--expect", "Accounts",
        ])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("/debug/App: 2 modules, all checks passed: Billing, Accounts"), "\(check.output)")
    }
}
#endif
