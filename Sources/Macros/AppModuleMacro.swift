#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@AppModule(...)` on a type at file scope: writes the type's module
/// record into `app_modules` from Swift, with a factory that calls the
/// type's `init()` (RecordABI.md, "Texts inline").
///
/// A peer macro for the record, and an extension macro only to learn from
/// the compiler whether the type is an `AppModule`: it adds no extension.
public enum AppModuleMacro: PeerMacro, ExtensionMacro {
    /// The record is laid out a slot a line (RecordLiteral), which the
    /// default formatting would spread over dozens.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let module = ModuleType(declaration, attribute: node, context: context) else { return [] }
        guard let options = AppModuleOptions(node, module: module.name, context: context) else { return [] }
        let sourceFile = context.location(of: declaration, at: .afterLeadingTrivia, filePathMode: .fileID)
            .flatMap { $0.file.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
        let record = RecordLiteral(module: module.name, options: options, sourceFile: sourceFile)
        return [record.declaration(factory: "{ SectionRegistry.AppModuleHandle(\(module.name)()) }")]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let listed = declaration.inheritanceClause?.inheritedTypes.contains { $0.type.trimmedDescription.hasSuffix("AppModule") } ?? false
        let missing = protocols.contains { $0.trimmedDescription.hasSuffix("AppModule") }
        if missing && !listed {
            context.diagnose(AppModuleDiagnostic.notAnAppModule.at(declaration, name: typeName(of: declaration)))
        }
        return []
    }

    private static func typeName(of declaration: some DeclGroupSyntax) -> TokenSyntax? {
        declaration.asProtocol(NamedDeclSyntax.self)?.name
    }
}

/// The type the attribute is on, once it is one the macro can register: a
/// non-generic struct, class, enum or actor at file scope, whose name is a C
/// identifier of at most 63 bytes, with this attribute once.
struct ModuleType {
    let name: String

    init?(_ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax, context: some MacroExpansionContext) {
        guard let type = declaration.asProtocol(NamedDeclSyntax.self),
              declaration.is(StructDeclSyntax.self) || declaration.is(ClassDeclSyntax.self)
                || declaration.is(EnumDeclSyntax.self) || declaration.is(ActorDeclSyntax.self)
        else {
            context.diagnose(AppModuleDiagnostic.notAType.at(attribute))
            return nil
        }
        name = type.name.identifier?.name ?? type.name.text
        guard context.lexicalContext.isEmpty else {
            context.diagnose(AppModuleDiagnostic.notAtFileScope(name).at(type.name))
            return nil
        }
        if let generics = declaration.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause {
            context.diagnose(AppModuleDiagnostic.generic(name).at(generics))
            return nil
        }
        if let problem = CIdentifier.problem(with: name) {
            context.diagnose(AppModuleDiagnostic.badModuleName(name, problem).at(type.name))
            return nil
        }
        let attributes = declaration.asProtocol(WithAttributesSyntax.self)?.attributes ?? []
        let registrations = attributes.compactMap { $0.as(AttributeSyntax.self) }.filter(\.isAppModule)
        // The expansion sees a copy of the declaration: the attribute is
        // told apart by its text. Two identical ones both write a record,
        // and the compiler reports `_appModuleRecord_NAME` redeclared.
        if registrations.count > 1, registrations.first?.trimmedDescription != attribute.trimmedDescription {
            context.diagnose(AppModuleDiagnostic.registeredTwice(name).at(attribute, fixIt: .remove(attribute)))
            return nil
        }
    }
}

extension AttributeSyntax {
    var isAppModule: Bool {
        let name = attributeName.trimmedDescription
        return name == "AppModule" || name == "SectionRegistry.AppModule"
    }
}
#endif
