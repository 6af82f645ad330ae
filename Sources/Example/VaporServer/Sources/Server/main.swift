import SectionRegistry

// The modules register themselves by being linked (Package.swift); the host
// finds them, starts them in their order, serves SIGTERM, SIGINT and SIGHUP,
// drains and stops them. Exit status 0, 1 (the launch failed, or a run) or 3
// (shutdown unclean).
var configuration = HostConfiguration()
// Behind a load balancer: at SIGTERM, /health/ready answers 503 at once and
// every module serves on for LAME_DUCK_MS while the balancer notices.
configuration.lameDuckDelay = .milliseconds(Int(configuration.environment["LAME_DUCK_MS"] ?? "") ?? 0)
await ModuleHost.main(configuration: configuration)
