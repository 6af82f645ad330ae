import Foundation
import Testing
@testable import SectionRegistry

/// What SectionRegistry does itself so as not to link Foundation, checked
/// against Foundation's own answer (this test target links it).
@Suite struct WithoutFoundationTests {
    @Test func theEnvironmentReadFromEnvironIsFoundations() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
    }

    @Test func anEmptyValueAValueWithAnEqualsSignAndTheFirstOfTwoEntriesAreKept() {
        let entries = ["EMPTY=", "EQUALS=a=b=c", "TWICE=first", "TWICE=second", "NO_EQUALS_SIGN"]
        var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        let variables = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.variables(in: $0.baseAddress) }
        #expect(variables == ["EMPTY": "", "EQUALS": "a=b=c", "TWICE": "first"])
        #expect(ProcessEnvironment.variables(in: nil) == [:])
    }

    @Test(arguments: ["plain", "quote \" and backslash \\", "lines\nand\ttabs\r", "control \u{1}\u{1f}", "unicode é 模块 🚀", ""])
    func aStringWrittenAsJSONReadsBackTheSame(text: String) throws {
        let json = "[" + JSONText.string(text) + "]"
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test(arguments: [0, 12.5, 1e-05, 123_456_789.125, 3])
    func aNumberWrittenAsJSONReadsBackTheSame(value: Double) throws {
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(JSONText.number(value))]".utf8)) as? [Double]
        #expect(parsed == [value])
    }
}
