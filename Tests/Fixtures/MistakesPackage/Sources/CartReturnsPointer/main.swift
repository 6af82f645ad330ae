import SectionRegistry

@c(app_module_Cart) func makeCart() -> UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 0xdead_beef) }

await ModuleHost.main()
