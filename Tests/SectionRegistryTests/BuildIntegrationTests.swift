import Foundation
import Testing

/// Real binaries built by SwiftPM with real linkers, checked with readelf.
///
@Suite(.serialized) struct BuildIntegrationTests {
    static let exampleModules = ["Accounts", "Audit", "Billing", "Search"]

    /// The lines in which the example lists what it discovered, in order.
    func discoveredModules(runningExample binary: String) async throws -> [Substring] {
        let run = try await runCommand([binary])
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
    }

    @Test func debugExampleFindsEveryFeatureInDeclaredOrder() async throws {
        let build = try await swiftBuild("registry-example", scratch: "debug")
        #expect(build.result.status == 0, "\(build.result.output)")
        #expect(!build.result.output.contains("warning:"), "\(build.result.output)")
        await #expect(try discoveredModules(runningExample: build.binary).map { $0.split(separator: " ")[1] }
            == ["Accounts", "Search", "Billing", "Audit"])
    }

    @Test(arguments: ["gold", "lld", "bfd"])
    func releaseExampleHoldsAndFindsTheSameModulesAsDebug(linker: String) async throws {
        let debug = try await swiftBuild("registry-example", scratch: "debug")
        try #require(debug.result.status == 0, "\(debug.result.output)")
        let build = try await LinkedBuilds.shared.releaseExample(linkedBy: linker)
        #expect(!build.output.contains("warning:"), "\(build.output)")
        let release = build.binary

        let comment = try await runCommand(["readelf", "-p", ".comment", release]).output
        #expect(comment.contains("Linker: LLD") == (linker == "lld"), "linked by \(linker): \(comment)")

        let verify = try await runCommand([verifySectionsScript, release] + Self.exampleModules)
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.hasPrefix(Self.exampleModules.joined(separator: "\n") + "\n"))

        let readelf = try await runCommand(["readelf", "-p", "app_modules", release])
        for name in Self.exampleModules {
            #expect(readelf.output.contains("]  \(name)\n"), "readelf -p app_modules shows \(name)")
        }
        await #expect(try discoveredModules(runningExample: release) == discoveredModules(runningExample: debug.binary))
    }

    @Test func aClientPackageLinksAndFindsItsModule() async throws {
        let build = try await swiftBuild("GoodApp", packagePath: clientPackage, scratch: "client")
        try #require(build.result.status == 0, "\(build.result.output)")
        let run = try await runCommand([build.binary])
        #expect(run.output == "found Greeter [service]\nGreeter: hello\n")
        #expect(try await runCommand([verifySectionsScript, build.binary, "Greeter"]).status == 0)
    }

    @Test func aModuleWithoutItsSwiftFactoryFailsTheLinkNamingTheModule() async throws {
        let build = try await swiftBuild("OrphanApp", packagePath: clientPackage, scratch: "client")
        #expect(build.result.status != 0)
        #expect(build.result.output.contains("undefined reference to 'app_module_Orphan'"), "\(build.result.output)")
    }

    /// Records written without `retain`, as by a compiler that lacks it:
    /// gold keeps them, lld's --gc-sections drops them, and then discovery
    /// and verify-sections.sh must both say so instead of finding nothing.
    @Test func recordsTheLinkerDroppedAreReportedNotIgnored() async throws {
        let gold = try await swiftBuild(
            "UnretainedApp", packagePath: clientPackage, scratch: "client-release-gold",
            extraArguments: ["-c", "release", "-Xswiftc", "-use-ld=gold"]
        )
        try #require(gold.result.status == 0, "\(gold.result.output)")
        #expect(try await runCommand([gold.binary]).output == "[\"Unretained\"]\n")

        let lld = try await swiftBuild(
            "UnretainedApp", packagePath: clientPackage, scratch: "client-release-lld",
            extraArguments: ["-c", "release", "-Xswiftc", "-use-ld=lld"]
        )
        try #require(lld.result.status == 0, "\(lld.result.output)")
        let run = try await runCommand([lld.binary])
        #expect(run.status == 1)
        #expect(run.output.contains("the app_modules section holds no module records"), "\(run.output)")
        let verify = try await runCommand([verifySectionsScript, lld.binary])
        #expect(verify.status == 1)
        #expect(verify.output.contains("app_modules holds no module records"), "\(verify.output)")
    }

    @Test func oneNameRegisteredInTwoTargetsFailsTheLinkNamingIt() async throws {
        let build = try await swiftBuild("DuplicateApp", packagePath: clientPackage, scratch: "client")
        #expect(build.result.status != 0)
        #expect(build.result.output.contains("app_module_record_Greeter"), "\(build.result.output)")
    }

    @Test func verifySectionsRejectsABinaryWithoutTheSection() async throws {
        let result = try await runCommand([verifySectionsScript, "/bin/sh"])
        #expect(result.status == 1)
        #expect(result.output.contains("has no app_modules section"))
    }

    @Test func verifySectionsNamesAMissingExpectedModule() async throws {
        let build = try await swiftBuild("registry-example", scratch: "debug")
        try #require(build.result.status == 0, "\(build.result.output)")
        let result = try await runCommand([verifySectionsScript, build.binary, "Billing", "Payroll"])
        #expect(result.status == 1)
        #expect(result.output.contains("expected modules missing from app_modules: Payroll"))
    }

    var clientPackage: URL { packageRoot.appendingPathComponent("Tests/Fixtures/ClientPackage") }
}
