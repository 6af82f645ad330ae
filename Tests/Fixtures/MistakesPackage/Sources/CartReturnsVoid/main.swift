import SectionRegistry

@c(app_module_Cart) func makeCart() {}

await ModuleHost.main()
