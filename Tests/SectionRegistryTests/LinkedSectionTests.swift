import Foundation
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Discovery on the real app_modules section of this test binary, which
/// links the records of Tests/TestModuleRecords/test_modules.c.
@Suite struct LinkedSectionTests {
    @Test func discoversTheLinkedRecordsInDeclaredOrder() throws {
        let registry = try ModuleRegistry.linked()
        #expect(registry.modules.map(\.name) == ["TestCore", "TestFeatureFirst", "TestFeatureA", "TestFeatureB", "TestLate"])
        #expect(registry.modules.map(\.level) == [.core, .feature, .feature, .feature, .late])
        #expect(registry.modules.map(\.priority) == [-5, 7, 0, 0, 0])
        #expect(registry["TestFeatureA"]?.dependencies == ["TestCore", "TestLate"])
        #expect(registry.modules.map(\.startsConcurrently) == [false, true, false, false, false])
        #expect(registry.modules.map(\.isRequired) == [true, false, false, false, false])
        #expect(registry.modules.allSatisfy { $0.location?.sourceFile == "test_modules.c" })
    }

    @Test func eachNameMapsToItsOwnFactory() throws {
        let registry = try ModuleRegistry.linked()
        for name in registry.modules.map(\.name) {
            let module = try #require(try registry.makeModule(named: name) as? LinkedTestModule)
            #expect(module.madeBy == name)
        }
        let first = try registry.makeModule(named: "TestCore") as? LinkedTestModule
        let second = try registry.makeModule(named: "TestCore") as? LinkedTestModule
        #expect(first !== second, "every makeModule call creates a new instance")
    }

    @Test func concurrentFirstUseReadsTheSectionOnce() async throws {
        let names = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<64 {
                group.addTask { try ModuleRegistry.linked().modules.map(\.name) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 64)
        #expect(Set(names).count == 1)
        #expect(ModuleRegistry.linkedDiscoveryCount.load(ordering: .relaxed) == 1)
    }

    /// The core knows no host type: the host hands it the symbol that tells
    /// copies apart, written out; it must be `AppModule`'s own mangling
    /// (renaming the module or the protocol changes it). The inspector,
    /// which reads files, names the same symbol.
    @Test func theCopyMarkerIsTheProtocolDescriptorOfAppModule() {
        #expect(ModuleRegistry.copyMarker == "$s15SectionRegistry9AppModuleMp")
        // "15SectionRegistry9AppModule_p": the existential's mangling is the
        // protocol's followed by `_p`; its descriptor is `$s<protocol>Mp`.
        let existential = _mangledTypeName((any AppModule).self) ?? ""
        #expect(ModuleRegistry.copyMarker == "$s" + existential.dropLast(2) + "Mp")
    }

    @Test func linkedSectionHoldsTheAnchorAndFiveRecordsWithoutPadding() throws {
        let images = LoadedImage.all()
        #expect(images.count(where: \.isProgram) == 1, "the test program, through its note")
        let program = try #require(images.first { $0.isProgram })
        #expect(program.problem == nil)
        let section = program.section
        #expect(section.count == 6 * 128)
        let moduleSlots = try ModuleRegistry.linked().modules.compactMap(\.location?.index)
        let anchorSlot = try #require(Set(0..<6).subtracting(moduleSlots).first)
        #expect(section[(anchorSlot * 128)..<((anchorSlot + 1) * 128)].allSatisfy { $0 == 0 })
    }

    @Test func readelfSeesTheSameModulesInThisBinary() async throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try await runCommand([verifySectionsScript, binary, "TestCore", "TestLate"])
        #expect(result.status == 0, "\(result.output)")
        let names = result.output.split(separator: "\n").filter { !$0.hasPrefix("verify-sections:") }
        #expect(names == ["TestCore", "TestFeatureA", "TestFeatureB", "TestFeatureFirst", "TestLate"])
        #expect(result.output.contains("verify-sections: \(binary): required (APP_MODULE_REQUIRED, may not be disabled): TestCore"),
                "\(result.output)")
    }
}
