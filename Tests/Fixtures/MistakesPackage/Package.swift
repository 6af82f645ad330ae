// swift-tools-version: 6.3
// The mistakes users made, one product each, built by MistakeTests. Each
// must end in a specific message, never in a crash or a silent loss:
// - CartReturns*: `@c(app_module_Cart)` defined with a type other than
//   `-> AppModuleHandle`, which links (the linker matches names only);
// - CartFromAnotherCopy: Cart's factory is in libForeignCart.so, which
//   linked its own copy of SectionRegistry;
// - ForgottenRegistrationApp: Checkout defines its factory but does not
//   depend on CheckoutRegistration, so no record names it;
// - BrokenOrderApp: `await ModuleHost.main()` with a module that comes
//   after one that is not linked;
// - MisspeltOrderApp: Orders comes after "Stroe", a typo for Store;
// - WrongRecordsProductApp: its registration target depends on
//   SectionRegistryDynamic instead of SectionRegistryRecords, which fails
//   the link with a symbol name that says so;
// - SwiftRecordOnDynamicApp: the same mistake for a module registered from
//   Swift (Crate, @AppModule's expansion written out).
import PackageDescription

let sectionRegistry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let dynamicSectionRegistry = Target.Dependency.product(name: "SectionRegistryDynamic", package: "SectionRegistry")

/// A C target of APP_MODULE lines.
func registration(_ name: String) -> Target {
    .target(name: name, dependencies: [sectionRegistry], publicHeadersPath: ".")
}

/// A program whose main.swift defines Cart's factory with a wrong type.
func wrongCart(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: [sectionRegistry, "CartRegistration"] + extra)
}

let package = Package(
    name: "MistakesPackage",
    products: [.library(name: "ForeignCart", type: .dynamic, targets: ["ForeignCart"])],
    dependencies: [.package(name: "SectionRegistry", path: "../../..")],
    targets: [
        registration("CartRegistration"),
        .target(name: "WrongTypes", publicHeadersPath: "."),
        wrongCart("CartReturnsInt"),
        wrongCart("CartReturnsVoid"),
        wrongCart("CartReturnsPointer"),
        wrongCart("CartReturnsStruct", ["WrongTypes"]),
        .target(name: "ForeignCart", dependencies: [sectionRegistry]),
        .target(name: "ForeignCartForwarder", dependencies: [sectionRegistry], publicHeadersPath: "."),
        wrongCart("CartFromAnotherCopy", ["ForeignCartForwarder"]),

        registration("CheckoutRegistration"),
        .target(name: "Checkout", dependencies: [sectionRegistry]),   // forgot "CheckoutRegistration"
        .executableTarget(name: "ForgottenRegistrationApp", dependencies: [sectionRegistry, "Checkout", "CartRegistration"]),

        registration("ShopRegistration"),
        .executableTarget(name: "BrokenOrderApp", dependencies: [sectionRegistry, "ShopRegistration"]),

        registration("StoreRegistration"),
        .executableTarget(name: "MisspeltOrderApp", dependencies: [sectionRegistry, "StoreRegistration"]),

        .target(name: "ParcelRegistration", dependencies: [dynamicSectionRegistry], publicHeadersPath: "."),  // not SectionRegistryRecords
        .executableTarget(name: "WrongRecordsProductApp", dependencies: [dynamicSectionRegistry, "ParcelRegistration"]),
        .target(name: "Crate", dependencies: [dynamicSectionRegistry]),  // registered from Swift; not SectionRegistryRecords
        .executableTarget(name: "SwiftRecordOnDynamicApp", dependencies: [dynamicSectionRegistry, "Crate"]),
    ],
    swiftLanguageModes: [.v6]
)
