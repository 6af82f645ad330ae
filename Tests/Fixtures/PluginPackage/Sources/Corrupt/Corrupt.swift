import SectionRegistry

/// The module of the corrupt plugins: a real AppModule, so that each
/// plugin reaches SectionRegistry's types as a well-built one does.
struct Corrupt: AppModule {}

@c(app_module_Corrupt) func makeCorrupt() -> AppModuleHandle { AppModuleHandle(Corrupt()) }
