#if Macros
import Foundation
import SectionRegistryMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

/// The macro as the compiler sees it: with the conformance it asks about.
let appModuleMacro: [String: MacroSpec] = ["AppModule": MacroSpec(type: AppModuleMacro.self, conformances: ["AppModule"])]

/// What `@AppModule` writes: the record of RecordABI.md, "Texts inline".
/// That these bytes are read as meant is shown by the fixtures below, which
/// hold expansions written out and are built and run with every linker.
final class ExpansionTests: XCTestCase {
    func testEveryOptionIsWrittenIntoTheRecordAndItsTextSlots() {
        assertMacroExpansion(
            """
            @AppModule(level: .service, priority: -3, after: ["Accounts", "Database"], startsConcurrently: true, required: true)
            final class Billing: AppModule {
            }
            """,
            expandedSource: """
            final class Billing: AppModule {
            }

            @section("app_modules") @used
            let _appModuleRecord_Billing: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text, SectionRegistry._AppModuleRecordLayout.Text) = (
                // module Billing, 384 bytes
                (0xA5A5_0001, 2, 384, 0x3, 2, 0, -3, { SectionRegistry.AppModuleHandle(Billing()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x676e696c6c6942, 0, 0, 0, 0, 0, 0, 0)),
                // after: Accounts,Database
                (0xA5A5_0002, 1, 0, 0, 0, (0x73746e756f636341, 0x736162617461442c, 0x65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                // source file: Billing/Billing.swift
                (0xA5A5_0002, 2, 0, 0, 0, (0x2f676e696c6c6942, 0x2e676e696c6c6942, 0x7466697773, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            )
            """,
            macroSpecs: appModuleMacro,
            testModuleName: "Billing", testFileName: "Billing.swift"
        )
    }

    func testWithoutOptionsTheRecordIsAFeatureWithItsSourceFileOnly() {
        assertMacroExpansion(
            """
            @AppModule
            struct Search: AppModule {}
            """,
            expandedSource: """
            struct Search: AppModule {}

            @section("app_modules") @used
            let _appModuleRecord_Search: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text) = (
                // module Search, 256 bytes
                (0xA5A5_0001, 2, 256, 0, 3, 0, 0, { SectionRegistry.AppModuleHandle(Search()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x686372616553, 0, 0, 0, 0, 0, 0, 0)),
                // source file: Search/Search.swift
                (0xA5A5_0002, 2, 0, 0, 0, (0x532f686372616553, 0x77732e6863726165, 0x746669, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            )
            """,
            macroSpecs: appModuleMacro,
            testModuleName: "Search", testFileName: "Search.swift"
        )
    }

    /// The fixtures that registering from Swift is tested with, in every
    /// build of SharedLibraryTests and scripts/build-matrix.sh, are built
    /// without the trait: each holds the expansion written out under the
    /// attribute it expands, in a comment. They must be what the macro
    /// writes today.
    func testTheFixturesHoldWhatTheMacroWrites() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures").standardized
        let files = [
            "SharedLibraries/App/Sources/Ledger/Ledger.swift", "SharedLibraries/App/Sources/Exports/Exports.swift",
            "SharedLibraries/Features/Sources/Stock/Stock.swift", "MistakesPackage/Sources/Crate/Crate.swift",
        ]
        for path in files {
            let url = fixtures.appendingPathComponent(path)
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let marker = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("// @AppModule") }, "\(path) has no // @AppModule line")
            let expanded = lines[(marker + 1)...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            let declaration = try XCTUnwrap(expanded.components(separatedBy: "\n\n@section").first)
            let module = url.deletingPathExtension().lastPathComponent
            assertMacroExpansion(
                String(lines[marker].dropFirst(3)) + "\n" + declaration,
                expandedSource: expanded,
                macroSpecs: [:].merging(["AppModule": MacroSpec(type: AppModuleMacro.self)]) { $1 },
                testModuleName: module, testFileName: url.lastPathComponent
            )
        }
    }
}
#endif
