import ELFInspection
import Foundation
import SectionRegistry
import Testing

/// The `section-registry` inspector on binaries SwiftPM builds, and on
/// malformed files written here.
@Suite(.serialized) struct InspectorTests {
    /// The debug example and the inspector, built into one scratch folder.
    func builtTools() async throws -> (example: String, inspector: String) {
        let example = try await swiftBuild("registry-example", scratch: "debug")
        try #require(example.result.status == 0, "\(example.result.output)")
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")
        return (example.binary, inspector.binary)
    }

    func inspect(_ bytes: [UInt8]) -> Result<ModuleInspection, InspectionError> {
        do {
            return .success(try ModuleInspection(ELFFile(bytes: bytes)))
        } catch let error as ELFError {
            return .failure(.elf(error))
        } catch {
            return .failure(error as! InspectionError)
        }
    }

    func bytes(of path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path)))
    }

    @Test func theExampleHoldsItsModulesWithTheirFactoriesNamed() async throws {
        let inspection = try await inspect(bytes(of: builtTools().example)).get()
        #expect(inspection.records.map(\.declaration.name) == ["Accounts", "Search", "Billing", "Audit"])
        #expect(inspection.records.map(\.factorySymbol) == ["app_module_Accounts", "app_module_Search", "app_module_Billing", "app_module_Audit"])
        #expect(inspection.records.first { $0.declaration.name == "Audit" }?.declaration.dependencies == ["Accounts", "Billing"])
        #expect(inspection.records.allSatisfy { $0.declaration.location?.sourceFile?.hasSuffix(".c") == true })
        #expect(inspection.problems.isEmpty)
        #expect(inspection.orderingProblems.isEmpty)
    }

    @Test(arguments: ["gold", "lld", "bfd"])
    func releaseBuildsOfEveryLinkerHoldTheSameRecords(linker: String) async throws {
        let build = try await LinkedBuilds.shared.releaseExample(linkedBy: linker)
        let inspection = try inspect(bytes(of: build.binary)).get()
        // Equal but for where the linker put each record.
        let debug = try await inspect(bytes(of: builtTools().example)).get()
        #expect(inspection.records.map(\.declaration.description) == debug.records.map(\.declaration.description))
        #expect(inspection.records.allSatisfy { $0.factorySymbol?.hasPrefix("app_module_") == true })
    }

    @Test func aBinaryWithoutModulesHoldsOnlyTheAnchor() async throws {
        let inspection = try await inspect(bytes(of: builtTools().inspector)).get()
        #expect(inspection.records.isEmpty)
        #expect(inspection.problems == [.noModules])
    }

    @Test func theCommandLineGatesOnCheck() async throws {
        let tools = try await builtTools()
        let good = try await runCommand([tools.inspector, "check", tools.example, "--expect", "Billing", "--expect", "Audit"])
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("4 modules, all checks passed"))
        let missing = try await runCommand([tools.inspector, "check", tools.example, "--expect", "Payroll"])
        #expect(missing.status == 1)
        #expect(missing.output.contains("expected module 'Payroll' is not in app_modules.\n"))
        let misspelt = try await runCommand([tools.inspector, "check", tools.example, "--expect", "billing"])
        #expect(misspelt.status == 1)
        #expect(misspelt.output.contains("expected module 'billing' is not in app_modules. Did you mean 'Billing'?"), "\(misspelt.output)")
        let empty = try await runCommand([tools.inspector, "check", tools.inspector])
        #expect(empty.status == 1)
        #expect(empty.output.contains("holds no module records"))
        let json = try await runCommand([tools.inspector, "inspect", "--json", tools.example])
        let rows = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(rows?.compactMap { $0["name"] as? String } == ["Accounts", "Search", "Billing", "Audit"])
        #expect(try await runCommand([tools.inspector, "inspect", tools.example]).output.contains("Billing   feature  0         Accounts"))
    }

    /// This test binary links Tests/TestModuleRecords, where TestCore is
    /// `APP_MODULE_REQUIRED` and TestFeatureFirst `APP_MODULE_CONCURRENT_START`.
    @Test func inspectShowsEachRecordsFlags() async throws {
        let tools = try await builtTools()
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let json = try await runCommand([tools.inspector, "inspect", "--json", binary])
        // The JSON's lines; a warning about this binary's records, which
        // cannot be ordered on purpose, comes with them.
        let lines = json.output.split(separator: "\n")
        let start = try #require(lines.firstIndex(of: "[")), end = try #require(lines.firstIndex(of: "]"))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(lines[start...end].joined(separator: "\n").utf8)) as? [[String: Any]])
        let flags = Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["name"] as? String).map { ($0, row["flags"] as? [String] ?? []) } })
        #expect(flags["TestCore"] == ["required"])
        #expect(flags["TestFeatureFirst"] == ["concurrent-start"])
        #expect(flags["TestLate"] == [])
        let table = try await runCommand([tools.inspector, "inspect", binary]).output.split(separator: "\n")
        #expect(table.contains { $0.hasPrefix("TestCore ") && $0.contains(" required ") }, "\(table)")
    }

    @Test func aStrippedBinaryStillShowsItsRecordsAndSaysWhyFactoriesHaveNoNames() async throws {
        let tools = try await builtTools()
        let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("stripped-\(UUID())").path
        #expect(try await runCommand(["strip", "-o", stripped, tools.example]).status == 0)
        let inspection = try inspect(bytes(of: stripped)).get()
        #expect(inspection.records.map(\.declaration.name) == ["Accounts", "Search", "Billing", "Audit"])
        #expect(!inspection.hasSymbols)
        #expect(inspection.records.allSatisfy { $0.factorySymbol == nil }, "factories are hidden: not in .dynsym")
        let result = try await runCommand([tools.inspector, "inspect", stripped])
        #expect(result.status == 0)
        #expect(result.output.contains("app_module_") == false && result.output.contains("0x"))
        #expect(result.output.contains("no symbol table (stripped)"))
    }

    // MARK: Malformed files

    /// The example's bytes, and where its app_modules section is.
    func example() async throws -> (bytes: [UInt8], section: ELFFile.Section) {
        let bytes = try await bytes(of: builtTools().example)
        let section = try #require(try ELFFile(bytes: bytes).section(named: "app_modules"))
        return (bytes, section)
    }

    @Test func headersThatAreNotELF64LittleEndianAreNamed() async throws {
        var (bytes, _) = try await example()
        #expect(inspect(Array("#!/bin/sh\n".utf8)).failure == .elf(.notELF))
        #expect(inspect([]).failure == .elf(.notELF))
        #expect(inspect(Array(bytes[..<40])).failure == .elf(.truncated("the ELF header")))
        bytes[4] = 1
        #expect(inspect(bytes).failure == .elf(.notSixtyFourBit))
        bytes[4] = 2
        bytes[5] = 2
        #expect(inspect(bytes).failure == .elf(.bigEndian))
    }

    @Test func sectionHeadersPastTheEndAreReportedNotRead() async throws {
        let (bytes, _) = try await example()
        let truncated = Array(bytes[..<(bytes.count - 64)])
        guard case .elf(.truncated)? = inspect(truncated).failure else {
            Issue.record("\(inspect(truncated))")
            return
        }
        var moved = bytes
        withUnsafeBytes(of: UInt64.max - 8) { moved.replaceSubrange(40..<48, with: $0) }  // e_shoff
        #expect(inspect(moved).failure != nil)
    }

    @Test func aSectionSizePastTheEndOrNotWholeRecordsIsReported() async throws {
        let (bytes, section) = try await example()
        let headerOffset = try sectionHeaderOffset(of: "app_modules", in: bytes)
        var tooLong = bytes
        withUnsafeBytes(of: UInt64(bytes.count)) { tooLong.replaceSubrange((headerOffset + 32)..<(headerOffset + 40), with: $0) }
        #expect(inspect(tooLong).failure == .elf(.truncated("section app_modules")))
        var ragged = bytes
        withUnsafeBytes(of: section.size - 3) { ragged.replaceSubrange((headerOffset + 32)..<(headerOffset + 40), with: $0) }
        let inspection = try inspect(ragged).get()
        #expect(inspection.problems.contains(.sectionNotWholeRecords(byteCount: Int(section.size) - 3)))
    }

    @Test func garbageRecordsAreReportedWithTheirDefects() async throws {
        var (bytes, section) = try await example()
        let records = Int(section.offset)
        // Every slot that holds a module record gets a defect of its own.
        let moduleSlots = (0..<Int(section.size) / 128).filter {
            bytes[records + $0 * 128 + 3] == 0xA5
        }
        try #require(moduleSlots.count == 4)
        bytes[records + moduleSlots[0] * 128 + 4] = 9                 // version
        bytes[records + moduleSlots[1] * 128 + 12] = 77               // level
        bytes.replaceSubrange((records + moduleSlots[2] * 128 + 64)..<(records + moduleSlots[2] * 128 + 128),
                              with: repeatElement(UInt8(ascii: "z"), count: 64))  // unterminated name
        for index in 0..<128 { bytes[records + moduleSlots[3] * 128 + index] = UInt8(truncatingIfNeeded: index &* 37) }
        let inspection = try inspect(bytes).get()
        let defects = inspection.problems.compactMap { problem -> [RecordDefect]? in
            if case .invalidRecord(_, _, let defects) = problem { defects } else { nil }
        }
        #expect(defects.count == 3, "the fully random slot is of an unknown kind, so it is skipped: \(inspection.problems)")
        #expect(defects.contains([.unsupportedVersion(9)]))
        #expect(defects.contains([.unknownLevel(77)]))
        #expect(defects.contains([.unterminatedName]))
        #expect(inspection.records.isEmpty)
    }

    @Test func theNoteLeadsToTheSectionAndAMissingOrWrongNoteFailsCheck() async throws {
        let tools = try await builtTools()
        var (bytes, section) = try await example()
        let note = try inspect(bytes).get().note.get()
        #expect(note.start == section.address && note.stop == section.address + section.size)
        #expect(note.count == 5, "the anchor's note and one per registration file")
        #expect(try await runCommand([tools.inspector, "inspect", tools.example]).output.contains("note: SectionRegistry 0x53520001 (5 notes)"))

        // Without the note, the runtime would never find the records.
        let directory = try scratchDirectory("note")
        let noNote = directory.appendingPathComponent("no-note").path
        #expect(try await runCommand(["objcopy", "--remove-section", ".note.app_modules", tools.example, noNote]).status == 0)
        #expect(try inspect(self.bytes(of: noNote)).get().note.failure == .missing)
        let check = try await runCommand([tools.inspector, "check", noNote])
        #expect(check.status == 1)
        #expect(check.output.contains("no SectionRegistry note (.note.app_modules): at run time nothing finds this image's modules"), "\(check.output)")

        // A note whose start offset is one record off, and one of another layout.
        let notes = try #require(try ELFFile(bytes: bytes).section(named: ".note.app_modules"))
        let descriptor = Int(notes.offset) + 12 + 16
        var shifted = bytes
        let start = Int32(bitPattern: UInt32(bytes[descriptor]) | UInt32(bytes[descriptor + 1]) << 8
                                      | UInt32(bytes[descriptor + 2]) << 16 | UInt32(bytes[descriptor + 3]) << 24)
        withUnsafeBytes(of: start + 128) { shifted.replaceSubrange(descriptor..<(descriptor + 4), with: $0) }
        #expect(try inspect(shifted).get().note.failure == .disagree(count: 5), "one of five notes moved")
        bytes[Int(notes.offset) + 4] = 16  // the first note's descriptor size
        #expect(try inspect(bytes).get().note.failure == .unknownLayout(descriptorSize: 16))
    }

    /// Where the section header of `name` starts in the file.
    func sectionHeaderOffset(of name: String, in bytes: [UInt8]) throws -> Int {
        let file = try ELFFile(bytes: bytes)
        let index = try #require(file.sections.firstIndex { $0.name == name })
        let headers = bytes[40..<48].reversed().reduce(0) { $0 << 8 | Int($1) }
        return headers + index * 64
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
