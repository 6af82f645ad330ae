import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// The start order: dependencies first, levels as tiers, ties by priority
/// and name, and every invalid graph refused before anything is created.
@Suite struct StartOrderTests {
    let journal = Journal()

    func order(_ modules: [ModuleDescriptor], disabled: Set<String> = []) throws -> [String] {
        let declarations = try declare(modules).modules.map(\.declaration)
        return try StartOrder.resolve(declarations, disabled: disabled).map { declarations[$0].name }
    }

    func problems(_ modules: [ModuleDescriptor], disabled: Set<String> = []) throws -> [OrderingProblem] {
        let declarations = try declare(modules).modules.map(\.declaration)
        do {
            _ = try StartOrder.resolve(declarations, disabled: disabled)
            return []
        } catch {
            return error.orderingProblems
        }
    }

    @Test func dependenciesReorderWithinALevelAndTiesGoByPriorityThenName() throws {
        let modules = [
            scripted("C", journal: journal),
            scripted("B", after: ["D"], journal: journal),
            scripted("D", priority: -1, journal: journal),
            scripted("A", level: .service, journal: journal),
            scripted("E", level: .late, journal: journal),
            scripted("Urgent", priority: 3, journal: journal),
        ]
        #expect(try order(modules) == ["A", "Urgent", "C", "D", "B", "E"])
        #expect(try order(modules.reversed()) == ["A", "Urgent", "C", "D", "B", "E"])
    }

    @Test func aDependencyOnAnEarlierLevelIsAlreadyMet() throws {
        let modules = [
            scripted("Feature", after: ["Store"], journal: journal),
            scripted("Store", level: .core, after: [], journal: journal),
            scripted("Late", level: .late, after: ["Feature", "Store"], journal: journal),
        ]
        #expect(try order(modules) == ["Store", "Feature", "Late"])
    }

    @Test func aCycleIsPrintedInFull() throws {
        let found = try problems([
            scripted("A", after: ["C"], journal: journal),
            scripted("B", after: ["A"], journal: journal),
            scripted("C", after: ["B"], journal: journal),
            scripted("Free", journal: journal),
        ])
        #expect(found == [.cycle(["A", "C", "B", "A"])])
        #expect(found[0].description.hasPrefix("dependency cycle: A -> C -> B -> A"))
    }

    @Test func aModuleAfterItselfIsACycle() throws {
        #expect(try problems([scripted("Loop", after: ["Loop"], journal: journal)]) == [.cycle(["Loop", "Loop"])])
    }

    @Test func aMissingDependencyNamesBothModules() throws {
        let found = try problems([scripted("Billing", after: ["Ledger"], journal: journal)])
        #expect(found == [.missingDependency(module: "Billing", dependency: "Ledger")])
        #expect(found[0].description.contains("module 'Billing' comes after 'Ledger', which is not linked"))
    }

    @Test func aDependencyOnALaterLevelIsRefused() throws {
        let found = try problems([
            scripted("Store", level: .core, after: ["Feature"], journal: journal),
            scripted("Feature", journal: journal),
        ])
        #expect(found == [.dependencyOnLaterLevel(module: "Store", level: .core, dependency: "Feature", dependencyLevel: .feature)])
    }

    @Test func disabledModulesAreLeftOutAndTheirDependentsRefused() throws {
        let modules = [
            scripted("Accounts", journal: journal),
            scripted("Billing", after: ["Accounts"], journal: journal),
            scripted("Search", journal: journal),
        ]
        #expect(try order(modules, disabled: ["Search"]) == ["Accounts", "Billing"])
        #expect(try problems(modules, disabled: ["Accounts"]) == [.disabledDependency(module: "Billing", dependency: "Accounts")])
        #expect(try problems(modules, disabled: ["Serch"]) == [.unknownDisabledModule("Serch", linked: ["Accounts", "Billing", "Search"])])
    }

    @Test(arguments: [
        ("search", " Did you mean 'Search'?"),    // another case
        ("Serch", " Did you mean 'Search'?"),     // a typo
        ("Acounts", " Did you mean 'Accounts'?"),
        ("Ledger", ""),                           // nothing close
    ])
    func anUnknownModuleToDisableListsTheLinkedOnesAndTheClosest(name: String, suggestion: String) throws {
        let modules = ["Accounts", "Billing", "Search"].map { scripted($0, journal: journal) }
        let found = try problems(modules, disabled: [name])
        #expect(found.map(\.description) == [
            "cannot disable '\(name)': no module of that name is linked (linked: Accounts, Billing, Search)." + suggestion,
        ])
    }

    @Test func aRequiredModuleCannotBeDisabledAndOthersStillCan() throws {
        let modules = [
            ModuleDescriptor(name: "Auth", level: .service, required: true) { ScriptedModule(name: "Auth", journal: journal) },
            scripted("Search", journal: journal),
        ]
        #expect(try problems(modules, disabled: ["Auth", "Search"]) == [.requiredModuleDisabled("Auth")])
        #expect(try order(modules, disabled: ["Search"]) == ["Auth"])
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let found = try problems([
            scripted("A", after: ["Missing"], journal: journal),
            scripted("B", after: ["C"], journal: journal),
            scripted("C", after: ["B"], journal: journal),
        ])
        #expect(found == [.missingDependency(module: "A", dependency: "Missing"), .cycle(["B", "C", "B"])])
    }

    @Test func tenThousandModulesInAChainOrderInOnePass() throws {
        let names = (0..<10_000).map { "M\(String($0).leftPadded(to: 5))" }
        let modules = names.enumerated().map { index, name in
            scripted(name, after: index == 0 ? [] : [names[index - 1]], journal: journal)
        }
        #expect(try order(modules.reversed()) == names)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
