import SectionRegistry

struct Parcel: AppModule {}

@c(app_module_Parcel) func makeParcel() -> AppModuleHandle { AppModuleHandle(Parcel()) }

print(try ModuleRegistry.linked().modules.map(\.name))
