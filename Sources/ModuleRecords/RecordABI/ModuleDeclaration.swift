/// What a module's record declares: its name and its place in the order.
/// The same whether read from this process or from a binary on disk.
package struct ModuleDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// The name in `APP_MODULE(NAME)`, unique in the registry.
    package let name: String
    /// The launch tier (`.level = APP_MODULE_LEVEL_...`).
    package let level: ModuleLevel
    /// The order within a level: higher comes first (`.priority = N`).
    package let priority: Int
    /// The modules this one comes after (`.after = "A,B"`), as written.
    package let dependencies: [String]
    /// Whether it may start alongside the modules of its level it has no
    /// dependency with (`.flags = APP_MODULE_CONCURRENT_START`).
    package let startsConcurrently: Bool
    /// Whether it may not be disabled from outside the program
    /// (`.flags = APP_MODULE_REQUIRED`): naming it among the modules to
    /// disable is an error.
    package let isRequired: Bool
    /// Where its record is and which file declared it; `nil` for a module
    /// declared in Swift.
    package let location: RecordLocation?

    /// A declaration made in Swift rather than read from a record.
    package init(
        name: String,
        level: ModuleLevel = .feature,
        priority: Int = 0,
        after dependencies: [String] = [],
        startsConcurrently: Bool = false,
        required isRequired: Bool = false
    ) {
        self.init(name: name, level: level, priority: priority, after: dependencies,
                  startsConcurrently: startsConcurrently, required: isRequired, location: nil)
    }

    init(name: String, level: ModuleLevel, priority: Int, after dependencies: [String],
         startsConcurrently: Bool, required isRequired: Bool, location: RecordLocation?) {
        self.name = name
        self.level = level
        self.priority = priority
        self.dependencies = dependencies
        self.startsConcurrently = startsConcurrently
        self.isRequired = isRequired
        self.location = location
    }

    /// Calls `body` with the UTF-8 bytes of the name.
    package func withNameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var name = name
        return name.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    package var description: String {
        var text = "\(name) [\(level), priority \(priority)"
        if !dependencies.isEmpty { text += ", after \(dependencies.joined(separator: ", "))" }
        if startsConcurrently { text += ", concurrent start" }
        if isRequired { text += ", required" }
        return text + "]"
    }
}
