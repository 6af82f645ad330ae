import SectionRegistry

/// Registered, so that the program has a module; Checkout is not.
@c(app_module_Cart) func makeCart() -> AppModuleHandle { AppModuleHandle(Cart()) }

struct Cart: AppModule {}

print(try ModuleRegistry.linked().modules.map(\.name))
