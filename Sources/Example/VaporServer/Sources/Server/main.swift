import SectionRegistry

// The modules register themselves by being linked (Package.swift); the host
// finds them, starts them in their order, serves SIGTERM, SIGINT and SIGHUP,
// drains and stops them. Exit status 0, 1 (the launch failed, or a run) or 3
// (shutdown unclean).
await ModuleHost.main()
