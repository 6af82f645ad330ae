import SectionRegistryTesting
import Testing
@testable import SectionRegistry

/// A test takes a module's declaration from its linked record
/// (Tests/TestModuleRecords), and restates none of it.
struct LinkedDescriptorTests {
    struct Replacement: AppModule {}

    @Test func aLinkedDescriptorIsTheRecordsDeclarationAndFactory() throws {
        let core = try ModuleDescriptor.linked("TestCore")
        #expect(core.level == .core && core.priority == -5 && core.isRequired && core.dependencies.isEmpty)
        #expect((try core.makeModule() as? LinkedTestModule)?.madeBy == "TestCore")
    }

    @Test func aLinkedDescriptorMadeByTheTestKeepsTheRecordsDeclaration() throws {
        let first = try ModuleDescriptor.linked("TestFeatureFirst") { Replacement() }
        #expect(first.level == .feature && first.priority == 7 && first.startsConcurrently && !first.isRequired)
        #expect(try first.makeModule() is Replacement)
        #expect(try ModuleDescriptor.linked("TestFeatureA") { Replacement() }.dependencies == ["TestCore", "TestLate"])
    }

    @Test func theLinkedModulesStartInTheirRecordsOrderUnderTheKit() async throws {
        let started = try await withTestHost([.linked("TestLate"), .linked("TestFeatureB"), .linked("TestCore")]) { test in
            await test.host.runningModules
        }
        #expect(started == ["TestCore", "TestFeatureB", "TestLate"])
    }

    @Test func aNameNoRecordDeclaresIsALoudErrorNamingTheLinkedOnes() {
        let error = #expect(throws: RegistryError.self) { try ModuleDescriptor.linked("TestCorr") }
        #expect(error?.code == .unknownModule)
        #expect(error?.description.contains("no module named 'TestCorr' is linked") == true, "\(error.map { "\($0)" } ?? "")")
        #expect(error?.description.contains("TestCore") == true)
    }
}
