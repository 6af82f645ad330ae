#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// What `@AppModule` refuses, each said with the fix.
enum AppModuleDiagnostic: DiagnosticMessage {
    case notAType
    case notAtFileScope(String)
    case generic(String)
    case badModuleName(String, String)
    case registeredTwice(String)
    case notAnAppModule
    case levelNotLiteral
    case priorityNotLiteral
    case afterNotLiteral
    case badDependencyName(String, String)
    case afterItself(String)
    case afterTwice(String)
    case afterTooLong(Int, Int)
    case flagNotLiteral(String)

    var message: String {
        switch self {
        case .notAType:
            "@AppModule registers a struct, class, enum or actor that conforms to AppModule"
        case .notAtFileScope(let name):
            "@AppModule registers a type declared at file scope; move '\(name)' out of the type or function it is in"
        case .generic(let name):
            "@AppModule cannot register the generic type '\(name)': its factory must make one concrete type"
        case .badModuleName(let name, let problem):
            "'\(name)' cannot name a module: \(problem). The module's name is its type's name: rename the type"
        case .registeredTwice(let name):
            "'\(name)' has @AppModule twice: a module is registered once"
        case .notAnAppModule:
            "@AppModule registers a type that conforms to AppModule"
        case .levelNotLiteral:
            "write the level as .core, .service, .feature or .late: the macro writes it into the record"
        case .priorityNotLiteral:
            "write the priority as an integer literal from -32768 to 32767: the macro writes it into the record"
        case .afterNotLiteral:
            "write .after as an array of string literals, [\"Accounts\", \"Database\"]: the macro writes it into the record"
        case .badDependencyName(let name, let problem):
            "\"\(name)\" cannot be a module name in after: \(problem)"
        case .afterItself(let name):
            "'\(name)' cannot come after itself"
        case .afterTwice(let name):
            "'\(name)' is named twice in after"
        case .afterTooLong(let length, let capacity):
            "the after list is \(length) bytes with its commas; a record written from Swift holds at most \(capacity). Register this module with APP_MODULE in C, whose list has no limit"
        case .flagNotLiteral(let label):
            "write \(label) as true or false: the macro writes it into the record"
        }
    }

    var diagnosticID: MessageID {
        let name = "\(self)".prefix { $0 != "(" }
        return MessageID(domain: "SectionRegistryMacros", id: String(name))
    }

    var severity: DiagnosticSeverity { .error }

    func at(_ node: some SyntaxProtocol, fixIt: FixIt? = nil) -> Diagnostic {
        Diagnostic(node: node, message: self, fixIts: fixIt.map { [$0] } ?? [])
    }

    /// On a type that is not an AppModule, with the fix-it that declares the
    /// conformance.
    func at(_ declaration: some DeclGroupSyntax, name: TokenSyntax?) -> Diagnostic {
        let node = name.map(Syntax.init) ?? Syntax(declaration)
        let change: FixIt.Change
        if let last = declaration.inheritanceClause?.inheritedTypes.last {
            let type = TypeSyntax(stringLiteral: last.type.trimmedDescription + ", AppModule")
            change = .replace(oldNode: Syntax(last.type), newNode: Syntax(type.with(\.trailingTrivia, last.type.trailingTrivia)))
        } else if let name {
            let named = TokenSyntax.identifier(name.text + ": AppModule", leadingTrivia: name.leadingTrivia, trailingTrivia: name.trailingTrivia)
            change = .replace(oldNode: Syntax(name), newNode: Syntax(named))
        } else {
            return Diagnostic(node: node, message: self)
        }
        let fixIt = FixIt(message: AppModuleFixIt("declare the conformance to AppModule"), changes: [change])
        return Diagnostic(node: node, message: self, fixIts: [fixIt])
    }
}

struct AppModuleFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "SectionRegistryMacros", id: message) }

    init(_ message: String) {
        self.message = message
    }
}

extension FixIt {
    static func remove(_ node: some SyntaxProtocol) -> FixIt {
        FixIt(message: AppModuleFixIt("remove it"), changes: [.replace(oldNode: Syntax(node), newNode: Syntax(MissingExprSyntax()))])
    }

    static func replace(_ node: some SyntaxProtocol, with replacement: some SyntaxProtocol, saying message: String) -> FixIt {
        FixIt(message: AppModuleFixIt(message), changes: [.replace(oldNode: Syntax(node), newNode: Syntax(replacement))])
    }
}
#endif
