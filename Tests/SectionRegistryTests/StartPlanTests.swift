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
        #expect(plan.steps.grouped.map { names($0, in: declarations) } == [["Store"], ["X", "Y"], ["Z"], ["Late"]])
        let dependents = declarations.indices.map { names(plan.dependents(of: $0), in: declarations) }
        #expect(dependents == [["Late"], ["Z"], [], [], []])
    }

    /// Read straight from the descriptors when none is disabled and none
    /// comes after another; otherwise from their declarations: the same plan.
    @Test func aPlanReadFromTheDescriptorsIsThePlanOfTheirDeclarations() throws {
        let free = try declare([
            scripted("Store", level: .core, journal: journal),
            scripted("X", concurrent: true, journal: journal),
            scripted("Y", concurrent: true, journal: journal),
            scripted("Solo", priority: -1, journal: journal),
            scripted("Late", level: .late, concurrent: true, journal: journal),
        ]).modules
        let fromDescriptors = try StartPlan(free, disabled: [])
        let fromDeclarations = try StartPlan(free.map(\.declaration), disabled: [])
        #expect(fromDescriptors.order == fromDeclarations.order)
        #expect(fromDescriptors.steps == fromDeclarations.steps)
        #expect(fromDescriptors.steps.grouped.map { $0.map { free[$0].name } } == [["Store"], ["X", "Y"], ["Solo"], ["Late"]])
        #expect(try StartPlan(free, disabled: ["Y"]).order == StartPlan(free.map(\.declaration), disabled: ["Y"]).order)
        let declarations = try declarations()
        let registry = try declare([
            scripted("Store", level: .core, journal: journal),
            scripted("X", concurrent: true, journal: journal),
            scripted("Y", concurrent: true, journal: journal),
            scripted("Z", after: ["X"], concurrent: true, journal: journal),
            scripted("Late", level: .late, after: ["Store"], journal: journal),
        ]).modules
        let withDependencies = try StartPlan(registry, disabled: [])
        #expect(withDependencies.steps.grouped.map { names($0, in: declarations) } == [["Store"], ["X", "Y"], ["Z"], ["Late"]])
        let declaredPlan = try StartPlan(declarations, disabled: [])
        #expect(declarations.indices.allSatisfy { withDependencies.dependents(of: $0) == declaredPlan.dependents(of: $0) })
    }

    /// What a plan reads in place from the linked test records (flags,
    /// level, whether there is an `.after`) is what their declarations say.
    @Test func linkedRecordsReadInPlaceAreTheirDeclarations() throws {
        let linked = try ModuleRegistry.linked().modules
        #expect(linked.map(\.startsConcurrently) == linked.map(\.declaration.startsConcurrently))
        #expect(linked.filter(\.startsConcurrently).map(\.name).contains("TestFeatureFirst"))
        #expect(linked.map(\.level) == linked.map(\.declaration.level))
        #expect(linked.map(\.mayHaveDependencies) == linked.map { !$0.dependencies.isEmpty })
    }

    @Test func theStepsOfModulesAddedLaterAreGroupedAmongThemselves() throws {
        let declarations = try declarations()
        let plan = try StartPlan(declarations, disabled: [])
        let y = try #require(declarations.firstIndex { $0.name == "Y" })
        // Z's dependency X is not among them: Z starts alongside Y.
        #expect(plan.steps(from: y).grouped.map { names($0, in: declarations) } == [["Y", "Z"], ["Late"]])
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
