import SectionRegistry

@c(app_module_Cart) func makeCart() -> Int { 42 }

await ModuleHost.main()
