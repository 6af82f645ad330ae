#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The arguments of one `@AppModule(...)`, read from their literals: the
/// counterparts of `APP_MODULE`'s options. The compiler has already checked
/// their types (an unknown level or a priority out of `Int16` fails there);
/// the macro checks what it must write as bytes.
struct AppModuleOptions {
    var level: UInt8 = 3
    var priority: Int16 = 0
    var after: [String] = []
    var flags: UInt32 = 0

    /// The levels of `ModuleLevel`, by case name.
    static let levels: [String: UInt8] = ["core": 1, "service": 2, "feature": 3, "late": 4]
    /// APP_MODULE_CONCURRENT_START and APP_MODULE_REQUIRED.
    static let flagBits: [String: UInt32] = ["startsConcurrently": 0x1, "required": 0x2]
    /// APP_MODULE_TEXT_CAPACITY, less the NUL.
    static let textCapacity = 119

    init?(_ attribute: AttributeSyntax, module: String, context: some MacroExpansionContext) {
        var valid = true
        for argument in attribute.arguments?.as(LabeledExprListSyntax.self) ?? [] {
            let label = argument.label?.text ?? ""
            let readable: Bool = switch label {
            case "level": readLevel(argument.expression, context: context)
            case "priority": readPriority(argument.expression, context: context)
            case "after": readAfter(argument.expression, module: module, context: context)
            default: readFlag(label, argument.expression, context: context)
            }
            valid = valid && readable
        }
        guard valid else { return nil }
    }

    private mutating func readLevel(_ expression: ExprSyntax, context: some MacroExpansionContext) -> Bool {
        guard let member = expression.as(MemberAccessExprSyntax.self),
              let level = Self.levels[member.declName.baseName.text]
        else {
            context.diagnose(AppModuleDiagnostic.levelNotLiteral.at(expression))
            return false
        }
        self.level = level
        return true
    }

    private mutating func readPriority(_ expression: ExprSyntax, context: some MacroExpansionContext) -> Bool {
        var digits = expression
        var sign: Int64 = 1
        if let prefixed = expression.as(PrefixOperatorExprSyntax.self), prefixed.operator.text == "-" {
            digits = prefixed.expression
            sign = -1
        }
        guard let literal = digits.as(IntegerLiteralExprSyntax.self),
              let magnitude = Int64(String(literal.literal.text.filter { $0 != "_" })),
              let priority = Int16(exactly: sign * magnitude)
        else {
            context.diagnose(AppModuleDiagnostic.priorityNotLiteral.at(expression))
            return false
        }
        self.priority = priority
        return true
    }

    private mutating func readAfter(_ expression: ExprSyntax, module: String, context: some MacroExpansionContext) -> Bool {
        guard let array = expression.as(ArrayExprSyntax.self) else {
            context.diagnose(AppModuleDiagnostic.afterNotLiteral.at(expression))
            return false
        }
        var valid = true
        for element in array.elements {
            guard let name = element.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                context.diagnose(AppModuleDiagnostic.afterNotLiteral.at(element.expression))
                valid = false
                continue
            }
            if let problem = CIdentifier.problem(with: name) {
                let trimmed = String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                let fixIt: FixIt? = CIdentifier.problem(with: trimmed) == nil && trimmed != name
                    ? .replace(element.expression, with: ExprSyntax(StringLiteralExprSyntax(content: trimmed)), saying: "write \"\(trimmed)\"")
                    : nil
                context.diagnose(AppModuleDiagnostic.badDependencyName(name, problem).at(element.expression, fixIt: fixIt))
                valid = false
            } else if name == module {
                context.diagnose(AppModuleDiagnostic.afterItself(module).at(element.expression, fixIt: .remove(element)))
                valid = false
            } else if after.contains(name) {
                context.diagnose(AppModuleDiagnostic.afterTwice(name).at(element.expression, fixIt: .remove(element)))
                valid = false
            } else {
                after.append(name)
            }
        }
        let length = after.joined(separator: ",").utf8.count
        if valid && length > Self.textCapacity {
            context.diagnose(AppModuleDiagnostic.afterTooLong(length, Self.textCapacity).at(expression))
            valid = false
        }
        return valid
    }

    private mutating func readFlag(_ label: String, _ expression: ExprSyntax, context: some MacroExpansionContext) -> Bool {
        guard let bit = Self.flagBits[label], let literal = expression.as(BooleanLiteralExprSyntax.self) else {
            context.diagnose(AppModuleDiagnostic.flagNotLiteral(label).at(expression))
            return false
        }
        if literal.literal.tokenKind == .keyword(.true) { flags |= bit }
        return true
    }
}

/// The rule for module names, which `APP_MODULE` pastes into C symbols and
/// `.after` lists separate with commas: ASCII letters, digits and `_`, not
/// starting with a digit, at most 63 bytes.
enum CIdentifier {
    static let capacity = 63

    static func problem(with name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.utf8.count > capacity { return "it is \(name.utf8.count) bytes, more than \(capacity)" }
        let valid = name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
        if !valid { return "it is not a C identifier (ASCII letters, digits and _)" }
        if name.utf8.first.map({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) == true {
            return "it starts with a digit"
        }
        return nil
    }
}
#endif
