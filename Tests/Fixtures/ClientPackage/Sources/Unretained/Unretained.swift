import SectionRegistry

@c(app_module_Unretained) func makeUnretained() -> AppModuleHandle { AppModuleHandle(Unretained()) }

struct Unretained: AppModule {}
