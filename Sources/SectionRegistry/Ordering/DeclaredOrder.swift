extension ModuleDeclaration {
    /// The order modules are listed and created in: by level, then by
    /// priority (higher first), then by name. Link order and section order
    /// never matter: linkers do not promise either.
    static func precedesInDeclaredOrder(_ lhs: ModuleDeclaration, _ rhs: ModuleDeclaration) -> Bool {
        if lhs.level != rhs.level { return lhs.level < rhs.level }
        if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
        return lhs.name < rhs.name
    }
}
