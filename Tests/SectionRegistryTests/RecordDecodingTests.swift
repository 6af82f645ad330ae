import CSectionRegistry
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// The decoder against synthetic sections: every class of bad record, each
/// reported with which record it is and what is wrong.
@Suite struct RecordDecodingTests {
    @Test func validRecordsDecodeEveryField() throws {
        let registry = try registry(of: [
            anchorRecord,
            moduleRecord("Billing", level: .service, priority: -3, after: "Accounts, Ledger"),
        ])
        let billing = try #require(registry["Billing"])
        #expect(!billing.startsConcurrently)
        #expect(billing.level == .service)
        #expect(billing.priority == -3)
        #expect(billing.dependencies == ["Accounts", "Ledger"])
        #expect(billing.location == RecordLocation(index: 1, byteOffset: 128, sourceFile: "synthetic.c"))
        #expect(try billing.makeModule() is SyntheticModule)
    }

    @Test func theConcurrentStartFlagIsDecoded() throws {
        var record = moduleRecord("Parallel")
        record.flags = APP_MODULE_CONCURRENT_START
        #expect(try registry(of: [record])["Parallel"]?.startsConcurrently == true)
    }

    @Test func reservedAndUnknownKindsAreSkipped() throws {
        var unknown = moduleRecord("FromTheFuture")
        unknown.kind = 0xA5A5_0042
        let registry = try registry(of: [anchorRecord, unknown, moduleRecord("Known"), anchorRecord])
        #expect(registry.modules.map(\.name) == ["Known"])
    }

    /// One broken field, and the defect it must be reported as.
    struct BrokenRecord: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: RecordDefect
        let breakRecord: @Sendable (inout app_module_record) -> Void
    }

    static let brokenRecords: [BrokenRecord] = [
        BrokenRecord(testDescription: "wrong version", expected: .unsupportedVersion(3)) { $0.version = 3 },
        BrokenRecord(testDescription: "wrong size", expected: .wrongSize(96)) { $0.size = 96 },
        BrokenRecord(testDescription: "unknown flags", expected: .unknownFlags(0x10)) { $0.flags = 0x10 },
        BrokenRecord(testDescription: "level 0", expected: .unknownLevel(0)) { $0.level = 0 },
        BrokenRecord(testDescription: "level 9", expected: .unknownLevel(9)) { $0.level = 9 },
        BrokenRecord(testDescription: "reserved byte", expected: .nonzeroReserved) { $0.reserved0 = 1 },
        BrokenRecord(testDescription: "reserved word", expected: .nonzeroReserved) { $0.reserved1.2 = 1 },
        BrokenRecord(testDescription: "null factory", expected: .missingFactory) { $0.factory = nil },
        BrokenRecord(testDescription: "empty name", expected: .emptyName) { setName(of: &$0, to: [0]) },
        BrokenRecord(testDescription: "unterminated name", expected: .unterminatedName) {
            setName(of: &$0, to: Array(repeating: UInt8(ascii: "x"), count: Int(APP_MODULE_NAME_CAPACITY)))
        },
        BrokenRecord(testDescription: "invalid UTF-8", expected: .nameNotUTF8) { setName(of: &$0, to: [0x42, 0xC3, 0x28, 0]) },
        BrokenRecord(testDescription: "comma in name", expected: .invalidNameCharacter("A,B")) {
            setName(of: &$0, to: Array("A,B".utf8) + [0])
        },
        BrokenRecord(testDescription: "control character in name", expected: .invalidNameCharacter("A\u{7}")) {
            setName(of: &$0, to: [0x41, 0x07, 0])
        },
        BrokenRecord(testDescription: "empty dependency", expected: .emptyDependency(list: "A,,B")) {
            $0.after = UnsafeRawPointer(("A,,B" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
        },
        BrokenRecord(testDescription: "dependencies not UTF-8", expected: .dependenciesNotUTF8) {
            $0.after = UnsafeRawPointer(("\u{FF}" as StaticString).utf8Start + 1).assumingMemoryBound(to: CChar.self)
        },
    ]

    @Test(arguments: brokenRecords)
    func brokenRecordIsReportedWithItsLocation(_ broken: BrokenRecord) throws {
        var record = moduleRecord("Broken")
        broken.breakRecord(&record)
        let problems = discoveryProblems([anchorRecord, moduleRecord("Fine"), record])
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        guard case .invalidRecord(let location, _, let defects) = problem else {
            Issue.record("expected an invalid record, got \(problem)")
            return
        }
        #expect(defects == [broken.expected])
        #expect(location.index == 2)
        #expect(location.byteOffset == 256)
        #expect(problem.description.contains("record #2"))
        #expect(problem.description.contains(broken.expected.description))
    }

    /// Discovery checks linked records where they lie and decodes only a
    /// section with a defect: the check must find every defect the decoder
    /// reports, and pass what it decodes.
    @Test(arguments: brokenRecords)
    func theInPlaceCheckFindsWhatTheDecoderReports(_ broken: BrokenRecord) {
        var record = moduleRecord("Broken")
        broken.breakRecord(&record)
        let fine = moduleRecord("Fine", after: " Accounts ,Ledger")
        sectionBytes([anchorRecord, fine, record]).withUnsafeBytes { section in
            let check = { ModuleRecord.check(section, byteOffset: $0 * ModuleRecord.size, memory: ProcessMemory()) }
            #expect(check(0) == .skipped)
            #expect(check(1) == .valid(nameLength: 4))
            #expect(check(2) == .defective)
        }
    }

    @Test func brokenRecordIsNamedWhenItsNameIsReadable() {
        var record = moduleRecord("Billing")
        record.factory = nil
        let error = RegistryError.discovery(discoveryProblems([record]))
        #expect(error.description.contains("module 'Billing', record #0 (synthetic.c, offset 0x0), has no factory"))
        #expect(error.description.contains("@c(app_module_NAME)"))
    }

    @Test func everyDefectOfARecordIsReported() {
        var record = moduleRecord("Many")
        record.version = 7
        record.factory = nil
        setName(of: &record, to: [0])
        let problems = discoveryProblems([record])
        #expect(problems == [.invalidRecord(
            RecordLocation(index: 0, byteOffset: 0, sourceFile: "synthetic.c"),
            name: nil,
            [.unsupportedVersion(7), .missingFactory, .emptyName]
        )])
    }

    @Test func truncatedTailIsReported() {
        let problems = discoveryProblems([anchorRecord, moduleRecord("Whole")], tail: [1, 2, 3, 4, 5])
        #expect(problems == [.sectionNotWholeRecords(byteCount: 2 * 128 + 5)])
        #expect(problems[0].description.contains("261 bytes, not a whole number of 128-byte records"))
    }

    @Test func duplicateNamesNameBothRecords() {
        let problems = discoveryProblems([moduleRecord("Billing"), anchorRecord, moduleRecord("Other"), moduleRecord("Billing")])
        #expect(problems == [.duplicateName(
            "Billing",
            RecordLocation(index: 0, byteOffset: 0, sourceFile: "synthetic.c"),
            RecordLocation(index: 3, byteOffset: 384, sourceFile: "synthetic.c")
        )])
        #expect(problems[0].description.contains("module 'Billing' is registered twice, by record #0"))
        #expect(problems[0].description.contains("and by record #3"))
    }

    @Test func problemsOfDifferentRecordsAreAllCollected() {
        var broken = moduleRecord("Broken")
        broken.size = 64
        let problems = discoveryProblems([moduleRecord("Twice"), broken, moduleRecord("Twice")], tail: [0])
        #expect(problems.count == 3)
        #expect(problems.contains(.sectionNotWholeRecords(byteCount: 3 * 128 + 1)))
        #expect(problems.contains { if case .invalidRecord(_, "Broken", [.wrongSize(64)]) = $0 { true } else { false } })
        #expect(problems.contains { if case .duplicateName("Twice", _, _) = $0 { true } else { false } })
    }

    @Test func aSectionWithOnlyTheAnchorIsAnErrorNotAnEmptyRegistry() {
        #expect(discoveryProblems([anchorRecord]) == [.noModules])
        #expect(discoveryProblems([]) == [.noModules])
    }
}
