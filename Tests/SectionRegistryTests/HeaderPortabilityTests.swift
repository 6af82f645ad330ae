import Foundation
import Testing

/// app_module.h compiled by Clang and GCC as users' registration targets
/// would be: one record each, retained, pointing at an undefined factory.
@Suite struct HeaderPortabilityTests {
    static let compilers = ["clang", "gcc"]

    func compile(_ source: String, with compiler: String) async throws -> (result: CommandResult, object: String) {
        try await compileC(source, named: "registration", with: compiler, in: scratchDirectory("header-\(compiler)"))
    }

    @Test(arguments: compilers)
    func recordIsRetainedAndAlignedWithAnUndefinedFactory(compiler: String) async throws {
        let source = """
            #include <app_module.h>
            APP_MODULE(Portable, .level = APP_MODULE_LEVEL_CORE, .priority = -2, .after = "A,B");
            """
        let (result, object) = try await compile(source, with: compiler)
        try #require(result.status == 0, "\(result.output)")

        let sections = try await runCommand(["readelf", "-S", "-W", object]).output
        let header = try #require(sections.split(separator: "\n").first { $0.contains(" app_modules ") })
        let fields = header.split(separator: "]")[1].split(separator: " ")
        // name type address offset size entsize flags link info alignment
        #expect(fields[4] == "000080", "one 128-byte record")
        #expect(fields[6].contains("R"), "SHF_GNU_RETAIN keeps it through --gc-sections: \(header)")
        #expect(fields.last == "16", "aligned to APP_MODULE_RECORD_ALIGNMENT")

        let symbols = try await runCommand(["nm", object]).output
        #expect(symbols.contains("U app_module_Portable"))
        #expect(symbols.contains("app_module_record_Portable"))
        #expect(try await runCommand(["readelf", "-p", "app_modules", object]).output.contains("]  Portable\n"))
    }

    /// The handle grew from 32 to 64 bytes (RecordABI.md) and the records
    /// stayed as they were: an object built with the previous release's
    /// header (Tests/Fixtures/PreviousHeader) holds the same record bytes and
    /// relocations as one built with this header, so this release reads it.
    @Test(arguments: compilers)
    func aRecordBuiltByThePreviousReleasesHeaderIsTheSameRecord(compiler: String) async throws {
        let source = """
            #include <app_module.h>
            APP_MODULE(Portable, .level = APP_MODULE_LEVEL_CORE, .priority = -2, .after = "A,B");
            APP_MODULE(Pinned, .flags = APP_MODULE_CONCURRENT_START | APP_MODULE_REQUIRED);
            """
        var sections: [String] = []
        for headers in ["CSectionRegistry/include", "Tests/Fixtures/PreviousHeader"] {
            // One file name for both: the record holds it (`__FILE__`).
            let directory = try scratchDirectory("header-previous-\(compiler)")
            let (result, object) = try await compileC(source, named: "registration", with: compiler, in: directory, headers: headers)
            try #require(result.status == 0, "\(result.output)")
            // The bytes and the relocations of the section, without the
            // lines that name the file.
            let bytes = try await runCommand(["readelf", "-x", "app_modules", object]).output
            let relocations = try await runCommand(["readelf", "-r", "-W", object]).output
            sections.append((bytes + relocations).split(separator: "\n").filter { !$0.contains(object) }.joined(separator: "\n"))
        }
        #expect(sections[0].contains("Portable") && sections[0].contains("app_module_Pinned"), "\(sections[0])")
        #expect(sections[0] == sections[1])
    }

    @Test(arguments: compilers)
    func aNameLongerThanTheRecordAllowsFailsToCompile(compiler: String) async throws {
        let name = String(repeating: "N", count: 64)
        let (result, _) = try await compile("#include <app_module.h>\nAPP_MODULE(\(name));\n", with: compiler)
        #expect(result.status != 0)
        #expect(result.output.contains("module name \(name) is longer than 63 bytes"), "\(result.output)")
    }

    @Test(arguments: compilers)
    func aNameThatIsNotAnIdentifierFailsToCompileStatingTheRule(compiler: String) async throws {
        let (result, _) = try await compile("#include <app_module.h>\nAPP_MODULE(Check-out);\n", with: compiler)
        #expect(result.status != 0)
        // The first error is the rule: Clang folds the name's characters,
        // GCC cannot and points into a declaration named after the rule.
        let firstError = try #require(result.output.split(separator: "\n").firstIndex { $0.contains("error:") })
        let rule = compiler == "clang"
            ? "error: static assertion failed due to requirement 'app_module_name_is_a_C_identifier_0': "
                + "APP_MODULE(Check-out): a module name must be a C identifier: ASCII letters, digits and _"
            : "APP_MODULE_name_must_be_a_C_identifier__##NAME"
        let firstLines = result.output.split(separator: "\n")[firstError...].prefix(5).joined(separator: "\n")
        #expect(firstLines.contains(rule), "\(result.output)")
    }
}
