import CSectionRegistry
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Ordering, lookup and instantiation on synthetic sections.
@Suite struct RegistryTests {
    static var records: [app_module_record] {[
        moduleRecord("Zeta", level: .late),
        moduleRecord("Beta"),
        moduleRecord("Alpha"),
        moduleRecord("Urgent", priority: 5),
        moduleRecord("Base", level: .core),
        moduleRecord("Store", level: .service, priority: -1),
        moduleRecord("Cache", level: .service, priority: -1),
    ]}
    static let declaredOrder = ["Base", "Cache", "Store", "Urgent", "Alpha", "Beta", "Zeta"]

    @Test(arguments: 0..<7)
    func orderIsLevelPriorityNameWhateverTheSectionOrder(rotation: Int) throws {
        let rotated = Array(Self.records[rotation...] + Self.records[..<rotation])
        #expect(try registry(of: rotated).modules.map(\.name) == Self.declaredOrder)
        #expect(try registry(of: rotated.reversed()).modules.map(\.name) == Self.declaredOrder)
    }

    /// Many modules, in a scrambled order with runs and long shared name
    /// prefixes: the declared order is the one the standard library's sort
    /// gives by level, priority (higher first) and name bytes, and every
    /// name is found.
    @Test func manyModulesAreOrderedAndFoundLikeASortedList() throws {
        var generator = SeededRandom(seed: 42)
        let modules = (0..<600).map { index in
            ModuleDescriptor(
                name: (index % 3 == 0 ? "SharedLongPrefix" : "M") + String(generator.next() % 100_000) + "_\(index)",
                level: ModuleLevel.allCases[Int(generator.next() % 4)],
                priority: Int(generator.next() % 5) - 2
            ) { SyntheticModule() }
        }
        let registry = try ModuleRegistry(declaring: modules)
        let expected = modules.sorted {
            ($0.level.rawValue, -$0.priority) != ($1.level.rawValue, -$1.priority)
                ? ($0.level.rawValue, -$0.priority) < ($1.level.rawValue, -$1.priority)
                : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
        #expect(registry.modules.map(\.name) == expected.map(\.name))
        #expect(modules.allSatisfy { registry[$0.name]?.name == $0.name })
        #expect(registry["SharedLongPrefix"] == nil)
    }

    @Test func lookupByName() throws {
        let registry = try registry(of: Self.records)
        #expect(registry["Store"]?.level == .service)
        #expect(registry["Store"]?.priority == -1)
        #expect(registry["Missing"] == nil)
    }

    @Test func makeModuleReturnsWhatTheFactoryMakes() throws {
        #expect(try registry(of: Self.records).makeModule(named: "Alpha") is SyntheticModule)
    }

    @Test func aHandleOfAnotherRecordABIVersionIsRefusedByName() throws {
        var record = moduleRecord("Legacy")
        record.factory = {
            var handle = AppModuleHandle(SyntheticModule())
            // A refused handle is never taken: take the module here
            // (LeakSanitizer in CI), and leave words that are never read.
            _ = try? AppModuleHandle.take(&handle, module: "Legacy", factory: nil)
            handle.magic = APP_MODULE_HANDLE_MAGIC
            handle.version = 1
            return handle
        }
        let error = #expect(throws: HostError.self) { try registry(of: [record]).makeModule(named: "Legacy") }
        #expect(error?.code == .factoryOtherVersion && error?.recordVersion == 1 && error?.module == "Legacy")
        #expect(error?.description.contains("`app_module_Legacy` (in ") == true)
        #expect(error?.description.hasSuffix(
            "returned a handle of record ABI version 1, this SectionRegistry implements version 2: "
                + "rebuild it against this SectionRegistry") == true, "\(String(describing: error))")
    }

    @Test func unknownNameSaysWhichAndListsTheLinkedOnes() throws {
        let registry = try registry(of: [moduleRecord("Beta"), moduleRecord("Alpha")])
        let error = #expect(throws: RegistryError.self) { try registry.makeModule(named: "Gamma") }
        #expect(error?.code == .unknownModule)
        #expect(error?.module == "Gamma")
        #expect(error?.knownModules == ["Alpha", "Beta"])
        #expect(error?.description.contains("no module named 'Gamma' is linked (linked: Alpha, Beta)") == true)
    }

    @Test func levelsMatchTheCHeader() {
        #expect(ModuleLevel(rawValue: UInt8(APP_MODULE_LEVEL_CORE)) == .core)
        #expect(ModuleLevel(rawValue: UInt8(APP_MODULE_LEVEL_SERVICE)) == .service)
        #expect(ModuleLevel(rawValue: UInt8(APP_MODULE_LEVEL_FEATURE)) == .feature)
        #expect(ModuleLevel(rawValue: UInt8(APP_MODULE_LEVEL_LATE)) == .late)
        #expect(ModuleLevel.allCases.sorted() == [.core, .service, .feature, .late])
    }
}
