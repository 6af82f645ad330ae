#if Macros
import SwiftSyntax

/// The `@section("app_modules") @used` constant that holds one module's
/// record and its text slots, written as the integer literals and closures
/// a Swift section constant allows (RecordABI.md, "Texts inline"). The
/// constants are app_module.h's: kinds, version, slot size, text fields.
struct RecordLiteral {
    let module: String
    let options: AppModuleOptions
    let sourceFile: String?

    static let moduleKind = "0xA5A5_0001"
    static let textKind = "0xA5A5_0002"
    static let version = 2
    static let slotSize = 128
    static let afterField = 1
    static let sourceFileField = 2

    /// The texts that follow the record, each in a slot of its own: the
    /// `.after` list (if any) and the source file.
    private var texts: [(field: Int, label: String, text: String)] {
        var texts: [(Int, String, String)] = []
        if !options.after.isEmpty { texts.append((Self.afterField, "after", options.after.joined(separator: ","))) }
        if let sourceFile { texts.append((Self.sourceFileField, "source file", Self.truncated(sourceFile))) }
        return texts
    }

    /// The constant, named after the module so that registering one name
    /// twice in a target is a redeclaration the compiler reports.
    func declaration(factory: String) -> DeclSyntax {
        let texts = texts
        let slotTypes = ["SectionRegistry._AppModuleRecordLayout.Record"]
            + texts.map { _ in "SectionRegistry._AppModuleRecordLayout.Text" }
        let size = Self.slotSize * (1 + texts.count)
        let record = "(\(Self.moduleKind), \(Self.version), \(size), \(hex(UInt64(options.flags))), \(options.level), 0, \(options.priority), "
            + "\(factory), 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), "
            + "\(Self.words(module, count: 8)))"
        let slots = texts.map { text in
            "// \(text.label): \(text.text)\n    (\(Self.textKind), \(text.field), 0, 0, 0, \(Self.words(text.text, count: 15)))"
        }
        return """
            @section("app_modules") @used
            let _appModuleRecord_\(raw: module): (\(raw: slotTypes.joined(separator: ", "))) = (
                // module \(raw: module), \(raw: size) bytes
                \(raw: ([record] + slots).joined(separator: ",\n    "))
            )
            """
    }

    /// `text`'s UTF-8 bytes, NUL-padded to `count` words, as little-endian
    /// words: what a `char[8 * count]` field holds.
    static func words(_ text: String, count: Int) -> String {
        var bytes = Array(text.utf8)
        bytes += repeatElement(0, count: 8 * count - bytes.count)
        let words = (0..<count).map { index in
            bytes[(8 * index)..<(8 * index + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        return "(" + words.map(hex).joined(separator: ", ") + ")"
    }

    /// A source file name cut to what a text slot holds, on a character
    /// boundary.
    static func truncated(_ text: String) -> String {
        var text = text
        while text.utf8.count > AppModuleOptions.textCapacity { text.removeFirst() }
        return text
    }
}

private func hex(_ value: UInt64) -> String {
    value == 0 ? "0" : "0x" + String(value, radix: 16)
}
#endif
