import SectionRegistry

// vapor-server's modules, with ExecuteHTTP for HTTP.
await ModuleHost.main()
