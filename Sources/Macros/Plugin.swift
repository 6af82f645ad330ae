#if Macros
import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct SectionRegistryMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [AppModuleMacro.self]
}
#else
// Without the Macros trait there is no swift-syntax: an empty plugin that
// nothing loads.
@main
enum SectionRegistryMacrosPlugin {
    static func main() {}
}
#endif
