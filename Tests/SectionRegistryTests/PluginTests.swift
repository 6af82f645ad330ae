import ELFInspection
import Foundation
import Testing

/// Plugins loaded with dlopen into a real process: the plugin example's host
/// (Sources/Example/Plugins) and the plugins of Tests/Fixtures/PluginPackage.
@Suite(.serialized) struct PluginTests {
    let examplePackage = packageRoot.appendingPathComponent("Sources/Example/Plugins")
    let fixturePackage = packageRoot.appendingPathComponent("Tests/Fixtures/PluginPackage")

    /// The host and the example plugin, libReportsPlugin.so.
    func builtExample() async throws -> (host: String, reports: String) {
        let host = try await swiftBuild("registry-plugin-host", packagePath: examplePackage, scratch: "plugins")
        try #require(host.result.status == 0, "\(host.result.output)")
        let reports = try await swiftBuild("ReportsPlugin", packagePath: examplePackage, scratch: "plugins")
        try #require(reports.result.status == 0, "\(reports.result.output)")
        return (host.binary, library(reports.binary))
    }

    /// A plugin of the fixture package.
    func builtFixture(_ product: String) async throws -> String {
        let build = try await swiftBuild(product, packagePath: fixturePackage, scratch: "plugin-fixtures")
        try #require(build.result.status == 0, "\(build.result.output)")
        return library(build.binary)
    }

    /// swiftBuild names the product's file as an executable's.
    func library(_ binary: String) -> String {
        let url = URL(fileURLWithPath: binary)
        return url.deletingLastPathComponent().appendingPathComponent("lib\(url.lastPathComponent).so").path
    }

    func lines(_ result: CommandResult) -> [String] {
        result.output.split(separator: "\n").map(String.init)
    }

    @Test func aPluginWithADependencyOnTheProgramStartsAfterItAndStopsBeforeIt() async throws {
        let example = try await builtExample()
        let run = try await runCommand([example.host, example.reports])
        #expect(run.status == 0, "\(run.output)")
        #expect(lines(run) == [
            "  Clock: started",
            "program: Clock",
            "  Reports: started (start #1 in this process)",
            "loaded \(example.reports): Reports",
            "running: Clock, Reports",
            "  Reports: stopped",
            "  Clock: stopped",
            "stopped: Reports, Clock",
        ])
    }

    @Test func aLibraryLoadedWithTheProgramIsLinkedNotAPlugin() async throws {
        // LD_PRELOAD maps it before main, as for a library linked at build
        // time: the program's registry holds its module, in start order
        // after the program's Clock, and loading it again is refused.
        let example = try await builtExample()
        let run = try await runCommand(["LD_PRELOAD=\(example.reports)", example.host, example.reports])
        #expect(run.status == 1, "\(run.output)")
        #expect(lines(run).prefix(3) == ["  Clock: started", "  Reports: started (start #1 in this process)", "program: Clock, Reports"])
        #expect(run.output.contains("plugin \(example.reports) is loaded already and its modules are registered"), "\(run.output)")
        #expect(lines(run).suffix(1) == ["stopped: Reports, Clock"])
    }

    @Test func unloadingStopsThePluginsModulesAndKeepsTheLibraryMapped() async throws {
        let example = try await builtExample()
        let run = try await runCommand([example.host, "--unload-and-reload", example.reports])
        #expect(run.status == 0, "\(run.output)")
        let output = lines(run)
        #expect(output.contains("unloaded \(example.reports): Reports"))
        // The module's static counter survived: the same mapping, new instances.
        #expect(output.contains("  Reports: started (start #2 in this process)"), "\(run.output)")
        #expect(output.filter { $0 == "  Reports: stopped" }.count == 2, "stopped once per load")
        #expect(output.suffix(1) == ["stopped: Reports, Clock"])
    }

    @Test func aPluginMayComeAfterAnotherPlugin() async throws {
        let example = try await builtExample()
        let dependent = try await builtFixture("DependentPlugin")
        let run = try await runCommand([example.host, example.reports, dependent])
        #expect(run.status == 0, "\(run.output)")
        #expect(lines(run).suffix(2) == ["  Clock: stopped", "stopped: Digest, Reports, Clock"])

        let alone = try await runCommand([example.host, dependent])
        #expect(alone.status == 1)
        #expect(alone.output.contains("module 'Digest' comes after 'Reports', which is not linked"), "\(alone.output)")
        #expect(!alone.output.contains("Digest: started"))
    }

    @Test func aNameTheProgramRegistersIsRefusedAndNothingOfThePluginStarts() async throws {
        let example = try await builtExample()
        let duplicate = try await builtFixture("DuplicatePlugin")
        let run = try await runCommand([example.host, duplicate])
        #expect(run.status == 1)
        #expect(run.output.contains("registers module 'Clock', which the program registers already: rename one of them"), "\(run.output)")
        #expect(lines(run).filter { $0.contains("Clock: started") }.count == 1)
        #expect(lines(run).suffix(1) == ["stopped: Clock"])
    }

    @Test func aPluginWithItsOwnCopyOfSectionRegistryIsRefused() async throws {
        let example = try await builtExample()
        let copy = try await builtFixture("OwnCopyPlugin")
        let run = try await runCommand([example.host, copy])
        #expect(run.status == 1)
        #expect(run.output.contains("carries its own copy of SectionRegistry"), "\(run.output)")
        #expect(run.output.contains("depend on the SectionRegistryDynamic product"))
        #expect(!run.output.contains("Mirror: started"))
    }

    @Test func aPluginWithoutRecordsAndAMissingFileAreRefused() async throws {
        let example = try await builtExample()
        let empty = try await builtFixture("NoRecordsPlugin")
        let run = try await runCommand([example.host, empty, "/nonexistent/libNothing.so"])
        #expect(run.status == 1)
        #expect(run.output.contains("plugin \(empty) registers no modules"), "\(run.output)")
        #expect(run.output.contains("cannot load plugin /nonexistent/libNothing.so: /nonexistent/libNothing.so: No such file or directory"))
        #expect(lines(run).suffix(1) == ["stopped: Clock"])
    }

    @Test func theInspectorReadsThePluginsRecords() async throws {
        let example = try await builtExample()
        let inspection = try ModuleInspection(ELFFile(bytes: Array(try #require(FileManager.default.contents(atPath: example.reports)))))
        #expect(inspection.records.map(\.declaration.name) == ["Reports"])
        #expect(inspection.records.map(\.factorySymbol) == ["app_module_Reports"])
        #expect(inspection.records.first?.declaration.dependencies == ["Clock"])
    }
}

extension PluginTests {
    @Test func checkWithHostAcceptsAPluginAfterTheProgramAndRefusesADuplicate() async throws {
        let example = try await builtExample()
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")

        let alone = try await runCommand([inspector.binary, "check", example.reports])
        #expect(alone.status == 1)
        #expect(alone.output.contains("module 'Reports' comes after 'Clock', which is not linked"), "\(alone.output)")

        let withHost = try await runCommand([inspector.binary, "check", example.reports, "--expect", "Reports", "--host", example.host])
        #expect(withHost.status == 0, "\(withHost.output)")

        let duplicate = try await runCommand([inspector.binary, "check", try builtFixture("DuplicatePlugin"), "--host", example.host])
        #expect(duplicate.status == 1)
        #expect(duplicate.output.contains("module 'Clock' is registered by \(example.host) already: rename one of them"), "\(duplicate.output)")
    }
}

extension PluginTests {
    /// A plugin the host program is given, and what refuses it, if anything:
    /// the words of `load(plugin:)` and of `check --host`.
    struct Verdict: Sendable, CustomTestStringConvertible {
        let plugin: String
        let load: String?
        let check: String?
        var testDescription: String { plugin }
    }

    static let verdicts = [
        Verdict(plugin: "ReportsPlugin", load: nil, check: nil),
        Verdict(plugin: "DuplicatePlugin", load: "registers module 'Clock', which the program registers already",
                check: "module 'Clock' is registered by"),
        Verdict(plugin: "OwnCopyPlugin", load: "carries its own copy of SectionRegistry",
                check: "carries its own copy of SectionRegistry, not the one this program runs"),
        Verdict(plugin: "NoRecordsPlugin", load: "registers no modules", check: "no app_modules section"),
        Verdict(plugin: "DependentPlugin", load: "module 'Digest' comes after 'Reports', which is not linked",
                check: "module 'Digest' comes after 'Reports', which is not linked"),
        Verdict(plugin: "/nonexistent/libNothing.so", load: "No such file or directory", check: "cannot read the file"),
    ]

    /// Every refusal case of these tests, through the runtime and the
    /// inspector: the inspector refuses exactly what a load refuses.
    @Test(arguments: verdicts)
    func checkWithHostRefusesWhatLoadRefuses(verdict: Verdict) async throws {
        let example = try await builtExample()
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")
        let plugin = switch verdict.plugin {
        case "ReportsPlugin": example.reports
        case let path where path.hasPrefix("/"): path
        default: try await builtFixture(verdict.plugin)
        }
        let load = try await runCommand([example.host, plugin])
        let check = try await runCommand([inspector.binary, "check", plugin, "--host", example.host])
        #expect((load.status == 0) == (check.status == 0), "load: \(load.output)\ncheck: \(check.output)")
        #expect((load.status == 0) == (verdict.load == nil), "\(load.output)")
        if let reason = verdict.load { #expect(load.output.contains(reason), "\(load.output)") }
        if let reason = verdict.check { #expect(check.output.contains(reason), "\(check.output)") }
    }
}

extension PluginTests {
    /// The corrupt images of the fixture package and the words that refuse
    /// each: the image, the record and the field.
    static let corruptImages = [
        ("BackwardsNotePlugin", "libBackwardsNotePlugin.so: its note's bounds (__start_app_modules 0x"),
        ("LongNotePlugin", "libLongNotePlugin.so: its note has a 16-byte descriptor, not 12"),
        ("WildPointerPlugin", "module 'Corrupt', record #1 of "),
    ]

    /// A corrupt image that reaches SectionRegistry's AppModule type is
    /// refused by name when loaded as a plugin: before, a backwards note
    /// trapped on overflow, a 16-byte one on a nil section, and a wild
    /// `.after` pointer crashed in strlen.
    @Test(arguments: corruptImages.map { $0.0 })
    func aCorruptPluginIsRefusedByNameNotACrash(plugin: String) async throws {
        let example = try await builtExample()
        let path = try await builtFixture(plugin)
        let run = try await runCommand([example.host, path])
        #expect(run.status == 1, "\(run.output)")
        let reason = try #require(Self.corruptImages.first { $0.0 == plugin }?.1)
        #expect(run.output.contains(reason), "\(run.output)")
        #expect(lines(run).suffix(1) == ["stopped: Clock"])
    }

    /// The same images linked at build time (DT_NEEDED) are each reported
    /// by ModuleRegistry.linked(), and nothing reads through their notes.
    @Test func corruptLibrariesLinkedAtBuildTimeAreEachRefusedByName() async throws {
        for (plugin, _) in Self.corruptImages { _ = try await builtFixture(plugin) }
        let app = try await swiftBuild("CorruptLibraryApp", packagePath: fixturePackage, scratch: "plugin-fixtures")
        try #require(app.result.status == 0, "\(app.result.output)")
        let run = try await runCommand([app.binary])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("3 problems"), "\(run.output)")
        for (_, reason) in Self.corruptImages { #expect(run.output.contains(reason), "\(run.output)") }
        #expect(run.output.contains("run backwards: the note is corrupt"))
        #expect(run.output.contains("libWildPointerPlugin.so (wild.c, offset 0x80), has an .after pointer that leads outside the image's readable data"))
    }
}
