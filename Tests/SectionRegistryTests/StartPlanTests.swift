import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// The start plan: order, concurrent steps and dependents, as positions in
/// the declarations, made once.
@Suite struct StartPlanTests {
    let journal = Journal()

    /// A core store, three concurrent features (Z after X) and a late module
    /// after the store; declared in registry order.
    func declarations() throws -> [ModuleDeclaration] {
        try declare([
            scripted("Store", level: .core, journal: journal),
            scripted("X", concurrent: true, journal: journal),
            scripted("Y", concurrent: true, journal: journal),
            scripted("Z", after: ["X"], concurrent: true, journal: journal),
            scripted("Late", level: .late, after: ["Store"], journal: journal),
        ]).modules.map(\.declaration)
    }

    func names(_ positions: [Int], in declarations: [ModuleDeclaration]) -> [String] {
        positions.map { declarations[$0].name }
    }

    @Test func concurrentModulesShareStepsAndDependentsWaitForTheirDependencies() throws {
        let declarations = try declarations()
        let plan = try StartPlan(declarations, disabled: [])
        #expect(names(plan.order, in: declarations) == ["Store", "X", "Y", "Z", "Late"])
        #expect(plan.steps.map { names($0, in: declarations) } == [["Store"], ["X", "Y"], ["Z"], ["Late"]])
        let dependents = declarations.indices.map { names(plan.dependents[$0], in: declarations) }
        #expect(dependents == [["Late"], ["Z"], [], [], []])
    }

    @Test func theStepsOfModulesAddedLaterAreGroupedAmongThemselves() throws {
        let declarations = try declarations()
        let plan = try StartPlan(declarations, disabled: [])
        let y = try #require(declarations.firstIndex { $0.name == "Y" })
        // Z's dependency X is not among them: Z starts alongside Y.
        #expect(plan.steps(from: y).map { names($0, in: declarations) } == [["Y", "Z"], ["Late"]])
    }

    @Test func aDisabledModuleIsNotPlannedAndALeftOutOneIsAsIfNotDeclared() throws {
        let declarations = try declarations()
        let withoutY = try StartPlan(declarations, disabled: ["Y"])
        #expect(names(withoutY.order, in: declarations) == ["Store", "X", "Z", "Late"])
        let x = try #require(declarations.firstIndex { $0.name == "X" })
        #expect(throws: RegistryError.ordering([.missingDependency(module: "Z", dependency: "X")])) {
            try StartPlan(declarations, disabled: [], leavingOut: [x])
        }
    }
}
