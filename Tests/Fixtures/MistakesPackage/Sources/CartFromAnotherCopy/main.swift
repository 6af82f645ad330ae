import SectionRegistry

// app_module_Cart is in ForeignCartForwarder, which takes it from a library.
await ModuleHost.main()
