import SectionRegistry

await ModuleHost.main()
