import SectionRegistry

@c(app_module_Shop) func makeShop() -> AppModuleHandle { AppModuleHandle(Shop()) }

struct Shop: AppModule {}

print("starting the shop")   // buffered: a pipe is not a terminal
await ModuleHost.main()
