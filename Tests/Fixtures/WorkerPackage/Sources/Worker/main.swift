import SectionRegistry

var configuration = HostConfiguration()
configuration.stopTimeLimit = .milliseconds(300)
await ModuleHost.main(configuration: configuration)
