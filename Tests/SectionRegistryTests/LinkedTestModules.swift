import SectionRegistry

/// The module behind every record in Tests/TestModuleRecords: it remembers
/// which factory made it. A class, so that instances can be told apart.
final class LinkedTestModule: AppModule {
    let madeBy: String

    init(madeBy: String) {
        self.madeBy = madeBy
    }
}

@c(app_module_TestLate) func makeTestLate() -> AppModuleHandle { AppModuleHandle(LinkedTestModule(madeBy: "TestLate")) }
@c(app_module_TestCore) func makeTestCore() -> AppModuleHandle { AppModuleHandle(LinkedTestModule(madeBy: "TestCore")) }
@c(app_module_TestFeatureA) func makeTestFeatureA() -> AppModuleHandle { AppModuleHandle(LinkedTestModule(madeBy: "TestFeatureA")) }
@c(app_module_TestFeatureB) func makeTestFeatureB() -> AppModuleHandle { AppModuleHandle(LinkedTestModule(madeBy: "TestFeatureB")) }
@c(app_module_TestFeatureFirst) func makeTestFeatureFirst() -> AppModuleHandle { AppModuleHandle(LinkedTestModule(madeBy: "TestFeatureFirst")) }
