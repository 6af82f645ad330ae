import Foundation
import Testing

/// The mistakes users made, each built for real (Tests/Fixtures/MistakesPackage)
/// and run: each ends in a message that names the module and the fix, with
/// exit status 1 and no backtrace.
@Suite(.serialized) struct MistakeTests {
    let package = packageRoot.appendingPathComponent("Tests/Fixtures/MistakesPackage")

    /// Builds `product` of the fixture package.
    func built(_ product: String) async throws -> String {
        try await builtProduct(product, packagePath: package, scratch: "mistakes")
    }

    /// Builds `product` of the fixture package and runs it with `environment`.
    func run(_ product: String, environment: [String] = []) async throws -> CommandResult {
        try await runCommand(environment + [try built(product)])
    }

    /// Ended by ModuleHost.main() with one message: status 1, no crash.
    func expectCleanFailure(_ result: CommandResult, saying message: String) {
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.components(separatedBy: message).count == 2, "said once: \(result.output)")
        #expect(!result.output.contains("Backtrace") && !result.output.contains("Fatal error"), "\(result.output)")
    }

    /// A registration target that depends on SectionRegistryDynamic, not
    /// SectionRegistryRecords, has no anchor in its image: the link fails
    /// and the symbol the linker names says what to depend on.
    @Test func aRegistrationTargetOnTheDynamicProductFailsTheLinkNamingTheFix() async throws {
        let build = try await swiftBuild("WrongRecordsProductApp", packagePath: package, scratch: "mistakes")
        #expect(build.result.status != 0)
        #expect(build.result.output.contains("parcel.c.o(.note.app_modules+0x24): error: undefined reference to "
            + "'registration_targets_depend_on_SectionRegistryRecords'"), "\(build.result.output)")
    }

    /// The same mistake for a module registered from Swift: its record's
    /// anchor reference names the fix.
    @Test func aSwiftRecordInAnImageWithoutSectionRegistryRecordsFailsTheLinkNamingTheFix() async throws {
        let build = try await swiftBuild("SwiftRecordOnDynamicApp", packagePath: package, scratch: "mistakes")
        #expect(build.result.status != 0)
        #expect(build.result.output.contains("error: undefined reference to 'attribute_modules_depend_on_SectionRegistryRecords'"),
                "\(build.result.output)")
    }

    @Test(arguments: ["CartReturnsInt", "CartReturnsVoid", "CartReturnsPointer", "CartReturnsStruct"])
    func aFactoryOfTheWrongTypeIsNamedNotCalledBlindly(product: String) async throws {
        let result = try await run(product)
        expectCleanFailure(result, saying: "SectionRegistry: `app_module_Cart` (in ")
        expectCleanFailure(result, saying: "/\(product)) does not return an `AppModuleHandle`: "
            + "define it as `@c(app_module_Cart) func makeCart() -> AppModuleHandle { AppModuleHandle(Cart()) }`")
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "`app_module_Billing` (in /path/App) does not return",
                                   printed: result.output, renamed: [("Billing", "Cart")])
    }

    @Test func aHandleMadeByAnotherCopyOfSectionRegistryIsRefused() async throws {
        let library = try await swiftBuild("ForeignCart", packagePath: package, scratch: "mistakes")
        try #require(library.result.status == 0, "\(library.result.output)")
        let path = URL(fileURLWithPath: library.binary).deletingLastPathComponent().appendingPathComponent("libForeignCart.so").path
        let result = try await run("CartFromAnotherCopy", environment: ["FOREIGN_CART_LIBRARY=\(path)"])
        expectCleanFailure(result, saying: "was built against another copy of SectionRegistry: "
            + "link SectionRegistry dynamically in the program and in every library with modules: depend on the SectionRegistryDynamic product")
        ArticleQuotes.expectQuoted(in: "Mistakes.md", startingWith: "`app_module_Billing` (in /path/App) was built against another copy",
                                   printed: result.output, renamed: [("Billing", "Cart")])
    }

    @Test func aBrokenOrderUnderMainIsAMessageWithStdoutFlushed() async throws {
        let result = try await run("BrokenOrderApp")
        expectCleanFailure(result, saying: """
            starting the shop
            SectionRegistry: the modules cannot be ordered; nothing was started:
              - module 'Shop' comes after 'Payments', which is not linked: \
            link the target with APP_MODULE(Payments) or remove it from the .after list of 'Shop'
            """)
    }

    /// A misspelt `.after` name gets the closest linked name, from the
    /// host at run time and from `check`, as a misspelt disabled name does.
    @Test func aMisspeltDependencySuggestsTheClosestLinkedNameAtRunTimeAndInCheck() async throws {
        let message = "module 'Orders' comes after 'Stroe', which is not linked: did you mean 'Store'? "
            + "If not, link the target with APP_MODULE(Stroe) or remove it from the .after list of 'Orders'"
        expectCleanFailure(try await run("MisspeltOrderApp"), saying: message)
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")
        let check = try await runCommand([inspector.binary, "check", try built("MisspeltOrderApp")])
        #expect(check.status == 1)
        #expect(check.output.contains(message), "\(check.output)")
    }

    @Test func aFactoryLinkedWithoutItsRegistrationIsReportedByCheck() async throws {
        let program = try await built("ForgottenRegistrationApp")
        // At run time the module is absent, and nothing can tell (README, "Add a module").
        #expect(try await runCommand([program]).output == "[\"Cart\"]\n")
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")
        let check = try await runCommand([inspector.binary, "check", program])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.output == """
            section-registry: \(program): check failed:
              - the factory of Checkout (`app_module_Checkout`) is linked but its registration is not: \
            add `CheckoutRegistration` (the C target with `APP_MODULE(Checkout)`) to the dependencies of `Checkout`

            """)
    }

    @Test func disablingANameThatIsNotLinkedSuggestsTheClosest() async throws {
        let example = try await swiftBuild("registry-example", scratch: "debug")
        try #require(example.result.status == 0, "\(example.result.output)")
        let result = try await runCommand(["SECTION_REGISTRY_DISABLE=search", example.binary, "serve"])
        expectCleanFailure(result, saying: """
            SectionRegistry: the modules cannot be disabled as asked; nothing was started:
              - cannot disable 'search': no module of that name is linked (linked: Accounts, Search, Billing, Audit). \
            Did you mean 'Search'?
            """)
    }
}
