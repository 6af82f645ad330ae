#if Macros
/// Registers the module this type is, from Swift: no C target, no `@c`
/// factory. The `Macros` trait's counterpart of `APP_MODULE`.
///
/// ```swift
/// import SectionRegistry
///
/// @AppModule(level: .service, after: ["Accounts"])
/// final class Billing: AppModule {
///     func start(_ context: ModuleContext) async throws { ... }
/// }
/// ```
///
/// The module's name is the type's name, which must be a C identifier of
/// at most 63 bytes, as `APP_MODULE`'s is. The macro writes the record into
/// the image's `app_modules` section with `@section` and `@used`; its
/// factory calls the type's `init()`. Every option is optional:
///
/// - `level`: the launch tier, ``ModuleLevel/feature`` by default.
/// - `priority`: order within the level, higher first; 0 by default.
/// - `after`: the modules this one comes after, as string literals; at most
///   119 bytes with their commas.
/// - `startsConcurrently`: may start alongside the modules of its level it
///   has no dependency with (`APP_MODULE_CONCURRENT_START`).
/// - `required`: may not be disabled from outside the program
///   (`APP_MODULE_REQUIRED`).
///
/// Write each as a literal: the macro turns them into the record's bytes.
/// The type must be declared at file scope, not be generic, and conform to
/// ``AppModule``; two registrations of one name in a target are a
/// redeclaration of `_appModuleRecord_NAME`. The image that links the type
/// needs `CSectionRegistry`'s note and anchor: the `SectionRegistry` product
/// brings them; a plugin's target depends on `SectionRegistryRecords` as
/// well as `SectionRegistryDynamic`, or the link fails with "undefined
/// reference to `attribute_modules_depend_on_SectionRegistryRecords`".
@attached(peer, names: prefixed(_appModuleRecord_))
@attached(extension, conformances: AppModule)
public macro AppModule(
    level: ModuleLevel = .feature,
    priority: Int16 = 0,
    after: [String] = [],
    startsConcurrently: Bool = false,
    required: Bool = false
) = #externalMacro(module: "SectionRegistryMacros", type: "AppModuleMacro")
#endif
