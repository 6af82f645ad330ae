import SectionRegistry

@c(app_module_Rogue) func makeRogue() -> AppModuleHandle { AppModuleHandle(Rogue()) }

/// A module of a library that links its own copy of SectionRegistry.
struct Rogue: AppModule {}
