import ELFInspection
import Foundation
import Testing

/// Every input that once crashed a fuzz harness (Tests/Fuzz/Regressions),
/// and the seed corpus, read again: each must give records or an error.
@Suite struct FuzzRegressionTests {
    static func files(in folder: String) -> [String] {
        let directory = packageRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0).path }
    }

    static let inputs = files(in: "Tests/Fuzz/Regressions/ELF") + files(in: "Tests/Fuzz/Corpus/ELF")

    @Test func thereAreInputsToReplay() {
        #expect(Self.inputs.count >= 4)
    }

    @Test(arguments: inputs)
    func inspectingTheInputEndsInRecordsOrAnError(path: String) throws {
        let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        do {
            let inspection = try ModuleInspection(ELFFile(bytes: bytes))
            _ = inspection.problems.map(\.description) + [String(describing: inspection.note)]
        } catch {
            #expect(!String(describing: error).isEmpty)
        }
    }

    /// Ledger's record has text slots, as `@AppModule` writes it.
    @Test func theSeedsHoldTheirFiveModules() throws {
        for path in Self.files(in: "Tests/Fuzz/Corpus/ELF") {
            let inspection = try ModuleInspection(ELFFile(bytes: Array(try #require(FileManager.default.contents(atPath: path)))))
            #expect(inspection.records.map(\.declaration.name) == ["Store", "Accounts", "Billing", "Ledger", "Audit"], "\(path)")
            let ledger = try #require(inspection.records.first { $0.declaration.name == "Ledger" })
            #expect(ledger.declaration.dependencies == ["Billing"] && ledger.declaration.location?.sourceFile == "Ledger/Ledger.swift", "\(path)")
            #expect(inspection.problems.isEmpty && inspection.orderingProblems.isEmpty, "\(path)")
        }
    }
}
