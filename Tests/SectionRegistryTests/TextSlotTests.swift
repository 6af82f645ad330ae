import CSectionRegistry
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// Records written from Swift (`@AppModule`), whose `.after` list and source
/// file follow them in text slots (RecordABI.md, "Texts inline"), against
/// synthetic sections: read as C records are, with the same rules, and every
/// way the slots can be wrong reported with the record.
@Suite struct TextSlotTests {
    @Test func aRecordWithTextSlotsDecodesItsTextsAndItsSlotsAreSkipped() throws {
        let section = [anchorRecord, moduleRecord("Accounts")] + swiftRecord("Billing", after: "Accounts, Ledger") + [moduleRecord("Ledger")]
        let registry = try registry(of: section)
        #expect(registry.modules.map(\.name) == ["Accounts", "Billing", "Ledger"])
        let billing = try #require(registry["Billing"])
        #expect(billing.dependencies == ["Accounts", "Ledger"])
        #expect(billing.location == RecordLocation(index: 2, byteOffset: 256, sourceFile: "Billing/Billing.swift"))
        #expect(try billing.makeModule() is SyntheticModule)
        #expect(try #require(registry["Ledger"]).location?.index == 5)
    }

    @Test func aRecordWithoutAnAfterListHasOneTextSlot() throws {
        let registry = try registry(of: swiftRecord("Search"))
        let search = try #require(registry["Search"])
        #expect(search.dependencies.isEmpty)
        #expect(search.location?.sourceFile == "Billing/Billing.swift")
    }

    /// What discovery reads in place, for records linked into an image.
    @Test func theInPlaceReadersSeeTheInlineTexts() {
        sectionBytes(swiftRecord("Billing", after: "Accounts") + swiftRecord("Search")).withUnsafeBytes { section in
            let billing = section.baseAddress!
            let search = billing + 3 * ModuleRecord.size
            #expect(ModuleRecord.check(section, byteOffset: 0, memory: ProcessMemory()) == .valid(nameLength: 7))
            #expect(ModuleRecord.check(section, byteOffset: 3 * ModuleRecord.size, memory: ProcessMemory()) == .valid(nameLength: 6))
            #expect(ModuleRecord.check(section, byteOffset: ModuleRecord.size, memory: ProcessMemory()) == .skipped)
            #expect(ModuleRecord.hasDependencies(at: billing))
            #expect(!ModuleRecord.hasDependencies(at: search))
            #expect(ModuleRecord.sourceFile(at: billing, memory: ProcessMemory()) == "Billing/Billing.swift")
            let location = RecordLocation(index: 0, byteOffset: 0, sourceFile: nil)
            #expect(ModuleRecord.declaration(at: billing, location: location, memory: ProcessMemory()).dependencies == ["Accounts"])
        }
    }

    /// One name registered in C and from Swift: the error names both.
    @Test func aNameRegisteredInCAndFromSwiftIsADuplicateNamingBoth() {
        let problems = discoveryProblems([moduleRecord("Billing")] + swiftRecord("Billing"))
        #expect(problems == [.duplicateName(
            "Billing",
            RecordLocation(index: 0, byteOffset: 0, sourceFile: "synthetic.c"),
            RecordLocation(index: 1, byteOffset: 128, sourceFile: "Billing/Billing.swift")
        )])
    }

    /// A record with text slots, broken one way, and the defect it must be
    /// reported as.
    struct BrokenTexts: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: RecordDefect
        let breakSlots: @Sendable (inout [app_module_record]) -> Void
    }

    static let brokenTexts: [BrokenTexts] = [
        BrokenTexts(testDescription: "size not whole slots", expected: .wrongSize(200)) { $0[0].size = 200 },
        BrokenTexts(testDescription: "more than two text slots", expected: .wrongSize(512)) { $0[0].size = 512 },
        BrokenTexts(testDescription: "slots past the section's end", expected: .textSlotsPastSectionEnd(384)) { $0.removeLast() },
        BrokenTexts(testDescription: "not a text slot", expected: .notATextSlot(2)) { $0[2] = anchorRecord },
        BrokenTexts(testDescription: "unknown field", expected: .unknownTextField(7)) {
            var text = asText($0[1])
            text.field = 7
            $0[1] = asSlot(text)
        },
        BrokenTexts(testDescription: "field twice", expected: .duplicateTextField(2)) {
            $0[1] = textSlot(field: APP_MODULE_TEXT_SOURCE_FILE, "Other.swift")
        },
        BrokenTexts(testDescription: "unterminated text", expected: .unterminatedText(1)) {
            $0[1] = textSlot(field: APP_MODULE_TEXT_AFTER, String(repeating: "A", count: Int(APP_MODULE_TEXT_CAPACITY)))
        },
        BrokenTexts(testDescription: "reserved bytes of a slot", expected: .nonzeroReserved) {
            var text = asText($0[2])
            text.reserved.1 = 1
            $0[2] = asSlot(text)
        },
        BrokenTexts(testDescription: "a pointer beside text slots", expected: .pointerBesideTextSlots) {
            $0[0].after = UnsafeRawPointer(("Accounts" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
        },
        BrokenTexts(testDescription: "no anchor reference", expected: .missingAnchorReference) { $0[0].reserved1.0 = 0 },
        BrokenTexts(testDescription: "reserved words after the anchor reference", expected: .nonzeroReserved) { $0[0].reserved1.2 = 1 },
        BrokenTexts(testDescription: "empty entry in the inline list", expected: .emptyDependency(list: "Accounts,")) {
            $0[1] = textSlot(field: APP_MODULE_TEXT_AFTER, "Accounts,")
        },
    ]

    @Test(arguments: brokenTexts)
    func brokenTextSlotsAreReportedWithTheRecord(_ broken: BrokenTexts) throws {
        var slots = swiftRecord("Broken", after: "Accounts")
        broken.breakSlots(&slots)
        let section = [anchorRecord, moduleRecord("Accounts")] + slots
        let problems = discoveryProblems(section)
        let problem = try #require(problems.first)
        #expect(problems.count == 1, "\(problems)")
        guard case .invalidRecord(let location, let name, let defects) = problem else {
            Issue.record("expected an invalid record, got \(problem)")
            return
        }
        #expect(defects == [broken.expected])
        #expect(name == "Broken")
        #expect(location.index == 2)
        #expect(problem.description.contains(broken.expected.description))
        // Discovery's in-place check agrees.
        sectionBytes(section).withUnsafeBytes { bytes in
            #expect(ModuleRecord.check(bytes, byteOffset: 2 * ModuleRecord.size, memory: ProcessMemory()) == .defective)
        }
    }
}
