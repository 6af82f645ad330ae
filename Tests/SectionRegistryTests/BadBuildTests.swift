import ELFInspection
import Foundation
import Testing

/// Real executables linked the ways users get wrong, outside SwiftPM, read
/// with the inspector (the runtime's decoder and rules): each is handled or
/// reported with how to fix it. A name longer than a record allows, and a
/// name registered twice, are refused earlier, by the compiler
/// (HeaderPortabilityTests) and the linker (BuildIntegrationTests).
@Suite struct BadBuildTests {
    /// A feature's registration and its factory, as one C file.
    static let feature = """
        #include <app_module.h>
        APP_MODULE(Feature, .level = APP_MODULE_LEVEL_SERVICE);
        app_module_handle app_module_Feature(void) { return (app_module_handle){ .maker = (void *)1 }; }
        """

    /// A program that reads its own section, as the Swift reader does, and
    /// prints how many slots it has (the anchor included).
    static let program = """
        #include <app_modules_section.h>
        #include <stdio.h>
        int main(void) {
            app_modules_section section = app_modules_section_in_this_image();
            printf("%d\\n", (int)(section.stop - section.start));
            return 0;
        }
        """

    /// Compiles the program, the anchor and the feature with `compiler`;
    /// links them with `driver` (the compiler by default) and `link`
    /// arranging the feature's object; returns the inspection of the
    /// executable and what it printed.
    func build(
        with compiler: String, linkingWith driver: String? = nil,
        link: (_ feature: String, _ directory: URL) async throws -> [String]
    ) async throws -> (inspection: ModuleInspection, slots: String) {
        let directory = try scratchDirectory("bad-build-\(compiler)")
        let anchorSource = try String(contentsOf: packageRoot.appendingPathComponent("CSectionRegistry/app_modules_section.c"), encoding: .utf8)
        var objects: [String] = []
        for (name, source) in [("main", Self.program), ("anchor", anchorSource), ("feature", Self.feature)] {
            let compiled = try await compileC(source, named: name, with: compiler, in: directory)
            try #require(compiled.result.status == 0, "\(compiled.result.output)")
            objects.append(compiled.object)
        }
        let executable = directory.appendingPathComponent("app").path
        let linked = try await runCommand([driver ?? compiler, "-o", executable, objects[0], objects[1]] + (try await link(objects[2], directory)))
        try #require(linked.status == 0, "\(linked.output)")
        let bytes = Array(try #require(FileManager.default.contents(atPath: executable)))
        let run = try await runCommand([executable])
        return (try ModuleInspection(ELFFile(bytes: bytes)), run.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: ["gcc", "clang"])
    func aRegistrationCompiledByEitherCompilerIsReadTheSame(compiler: String) async throws {
        let built = try await build(with: compiler) { feature, _ in [feature, "-Wl,--gc-sections"] }
        #expect(built.inspection.problems.isEmpty)
        #expect(built.inspection.records.map(\.declaration.name) == ["Feature"])
        #expect(built.inspection.records.map(\.factorySymbol) == ["app_module_Feature"])
        #expect(built.slots == "2", "the anchor and Feature, through --gc-sections")
    }

    /// `feature` alone in a static archive, libfeature.a.
    func archive(_ feature: String, _ directory: URL) async throws -> String {
        let library = directory.appendingPathComponent("libfeature.a").path
        let archived = try await runCommand(["ar", "rcs", library, feature])
        try #require(archived.status == 0, "\(archived.output)")
        return library
    }

    @Test func recordsInAStaticArchiveNothingReferencesAreReportedWithTheFix() async throws {
        // Nothing refers to the archive's object, so the linker leaves it out.
        let dropped = try await build(with: "clang") { feature, directory in [try await archive(feature, directory)] }
        #expect(dropped.inspection.records.isEmpty)
        #expect(dropped.slots == "1", "only the anchor")
        let message = try #require(dropped.inspection.problems.first).description
        #expect(dropped.inspection.problems == [.noModules])
        #expect(message.contains("records in a static archive that nothing references are not linked"), "\(message)")

        // The fix the message points at: link the objects whole.
        let whole = try await build(with: "clang") { feature, directory in
            ["-Wl,--whole-archive", try await archive(feature, directory), "-Wl,--no-whole-archive"]
        }
        #expect(whole.inspection.records.map(\.declaration.name) == ["Feature"])
        #expect(whole.slots == "2")
    }

    @Test func swiftcTakesTheWholeArchiveOnlyWhenTheArchiveGoesThroughXlinkerToo() async throws {
        // As the README once advised: swiftc moves the archive in front of
        // both -Xlinker flags, so they wrap nothing.
        let naive = try await build(with: "clang", linkingWith: "swiftc") { feature, directory in
            ["-Xlinker", "--whole-archive", try await archive(feature, directory), "-Xlinker", "--no-whole-archive"]
        }
        #expect(naive.inspection.problems == [.noModules])
        #expect(naive.inspection.problems.first?.description.contains(
            "-Xlinker --whole-archive -Xlinker LIB.a -Xlinker --no-whole-archive with swiftc") == true)

        let whole = try await build(with: "clang", linkingWith: "swiftc") { feature, directory in
            ["-Xlinker", "--whole-archive", "-Xlinker", try await archive(feature, directory), "-Xlinker", "--no-whole-archive"]
        }
        #expect(whole.inspection.records.map(\.declaration.name) == ["Feature"])
        #expect(whole.slots == "2")
    }

    /// What each linker prints for a registration linked without the
    /// anchor of its own image (CSectionRegistry, which a registration
    /// target gets from SectionRegistryRecords): the symbol it names is
    /// the fix.
    static let missingAnchor = [
        ("gold", "error: undefined reference to 'registration_targets_depend_on_SectionRegistryRecords'"),
        ("lld", "error: undefined hidden symbol: registration_targets_depend_on_SectionRegistryRecords"),
        ("bfd", "undefined reference to `registration_targets_depend_on_SectionRegistryRecords'"),
    ]

    @Test(arguments: missingAnchor.map { $0.0 })
    func aRegistrationLinkedWithoutItsAnchorFailsNamingTheFixWithEveryLinker(linker: String) async throws {
        let directory = try scratchDirectory("no-anchor-\(linker)")
        let compiled = try await compileC(Self.feature + "\nint main(void) { return 0; }\n", named: "feature", with: "clang", in: directory)
        try #require(compiled.result.status == 0, "\(compiled.result.output)")
        let linked = try await runCommand(["clang", "-fuse-ld=\(linker)", "-o", directory.appendingPathComponent("app").path, compiled.object])
        #expect(linked.status != 0)
        let message = try #require(Self.missingAnchor.first { $0.0 == linker }?.1)
        #expect(linked.output.contains(message), "\(linked.output)")
    }
}
