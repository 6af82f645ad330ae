#if Macros
import SectionRegistryMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

/// The mistakes `@AppModule` catches while compiling, each with the fix:
/// nothing is written for a registration it refuses.
final class DiagnosticTests: XCTestCase {
    func testANameThatIsNotACIdentifierIsRefused() {
        assertMacroExpansion(
            "@AppModule struct Café: AppModule {}",
            expandedSource: "struct Café: AppModule {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'Café' cannot name a module: it is not a C identifier (ASCII letters, digits and _). The module's name is its type's name: rename the type",
                    line: 1, column: 19
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }

    func testANameLongerThan63BytesIsRefused() {
        let name = String(repeating: "A", count: 64)
        assertMacroExpansion(
            "@AppModule struct \(name): AppModule {}",
            expandedSource: "struct \(name): AppModule {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'\(name)' cannot name a module: it is 64 bytes, more than 63. The module's name is its type's name: rename the type",
                    line: 1, column: 19
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }

    func testALevelThatIsNotALiteralCaseIsRefused() {
        assertMacroExpansion(
            "@AppModule(level: defaultLevel) struct Billing: AppModule {}",
            expandedSource: "struct Billing: AppModule {}",
            diagnostics: [
                DiagnosticSpec(message: "write the level as .core, .service, .feature or .late: the macro writes it into the record", line: 1, column: 19),
            ],
            macroSpecs: appModuleMacro
        )
    }

    /// The record is written all the same: the compiler tells the macro the
    /// type does not conform, but a conformance it cannot see must never
    /// cost a registration; the factory in it fails to compile too.
    func testATypeThatIsNotAnAppModuleIsToldToConform() {
        for (declaration, fixed) in [
            ("final class Billing {}", "final class Billing: AppModule {}"),
            ("final class Billing: Sendable {}", "final class Billing: Sendable, AppModule {}"),
        ] {
            assertMacroExpansion(
                "@AppModule \(declaration)",
                expandedSource: declaration + "\n\n" + billingRecord,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@AppModule registers a type that conforms to AppModule", line: 1, column: 24,
                        fixIts: [FixItSpec(message: "declare the conformance to AppModule")]
                    ),
                ],
                macroSpecs: appModuleMacro,
                applyFixIts: ["declare the conformance to AppModule"],
                fixedSource: "@AppModule " + fixed
            )
        }
    }

    let billingRecord = """
        @section("app_modules") @used
        let _appModuleRecord_Billing: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text) = (
            // module Billing, 256 bytes
            (0xA5A5_0001, 2, 256, 0, 3, 0, 0, { SectionRegistry.AppModuleHandle(Billing()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x676e696c6c6942, 0, 0, 0, 0, 0, 0, 0)),
            // source file: TestModule/test.swift
            (0xA5A5_0002, 2, 0, 0, 0, (0x75646f4d74736554, 0x2e747365742f656c, 0x7466697773, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        )
        """

    func testTheAttributeTwiceIsRefusedWithAFixItThatRemovesOne() {
        assertMacroExpansion(
            """
            @AppModule
            @AppModule(level: .late)
            struct Audit: AppModule {}
            """,
            expandedSource: """
            struct Audit: AppModule {}

            @section("app_modules") @used
            let _appModuleRecord_Audit: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text) = (
                // module Audit, 256 bytes
                (0xA5A5_0001, 2, 256, 0, 3, 0, 0, { SectionRegistry.AppModuleHandle(Audit()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x7469647541, 0, 0, 0, 0, 0, 0, 0)),
                // source file: TestModule/test.swift
                (0xA5A5_0002, 2, 0, 0, 0, (0x75646f4d74736554, 0x2e747365742f656c, 0x7466697773, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            )
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'Audit' has @AppModule twice: a module is registered once", line: 2, column: 1,
                    fixIts: [FixItSpec(message: "remove it")]
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }

    func testMistakesInTheAfterListAreRefusedEachWithItsFix() {
        assertMacroExpansion(
            #"@AppModule(after: ["Accounts", "Billing", "Accounts", "Check-out", " Search "]) struct Billing: AppModule {}"#,
            expandedSource: "struct Billing: AppModule {}",
            diagnostics: [
                DiagnosticSpec(message: "'Billing' cannot come after itself", line: 1, column: 32, fixIts: [FixItSpec(message: "remove it")]),
                DiagnosticSpec(message: "'Accounts' is named twice in after", line: 1, column: 43, fixIts: [FixItSpec(message: "remove it")]),
                DiagnosticSpec(
                    message: #""Check-out" cannot be a module name in after: it is not a C identifier (ASCII letters, digits and _)"#,
                    line: 1, column: 55
                ),
                DiagnosticSpec(
                    message: #"" Search " cannot be a module name in after: it is not a C identifier (ASCII letters, digits and _)"#,
                    line: 1, column: 68, fixIts: [FixItSpec(message: #"write "Search""#)]
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }

    func testAnAfterListLongerThanATextSlotIsRefused() {
        let names = (0..<9).map { "Dependency\($0)_with_a_long_name" }
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        assertMacroExpansion(
            "@AppModule(after: [\(list)]) struct Billing: AppModule {}",
            expandedSource: "struct Billing: AppModule {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "the after list is 260 bytes with its commas; a record written from Swift holds at most 119. Register this module with APP_MODULE in C, whose list has no limit",
                    line: 1, column: 19
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }

    func testOnlyANonGenericTypeAtFileScopeCanBeRegistered() {
        assertMacroExpansion(
            "@AppModule func billing() {}",
            expandedSource: "func billing() {}",
            diagnostics: [DiagnosticSpec(message: "@AppModule registers a struct, class, enum or actor that conforms to AppModule", line: 1, column: 1)],
            macroSpecs: ["AppModule": MacroSpec(type: AppModuleMacro.self)]
        )
        assertMacroExpansion(
            "@AppModule struct Cache<Value>: AppModule {}",
            expandedSource: "struct Cache<Value>: AppModule {}",
            diagnostics: [
                DiagnosticSpec(message: "@AppModule cannot register the generic type 'Cache': its factory must make one concrete type", line: 1, column: 24),
            ],
            macroSpecs: appModuleMacro
        )
        assertMacroExpansion(
            """
            enum Features {
                @AppModule struct Billing: AppModule {}
            }
            """,
            expandedSource: """
            enum Features {
                struct Billing: AppModule {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@AppModule registers a type declared at file scope; move 'Billing' out of the type or function it is in",
                    line: 2, column: 23
                ),
            ],
            macroSpecs: appModuleMacro
        )
    }
}
#endif
