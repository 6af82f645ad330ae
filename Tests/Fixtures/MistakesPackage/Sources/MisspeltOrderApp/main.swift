import SectionRegistry

@c(app_module_Store) func makeStore() -> AppModuleHandle { AppModuleHandle(Store()) }
@c(app_module_Orders) func makeOrders() -> AppModuleHandle { AppModuleHandle(Orders()) }

struct Store: AppModule {}
struct Orders: AppModule {}

await ModuleHost.main()
