// swift-log, under the `Logging` trait: a Logger for each module, whose
// lines go to the host's log, and a host log that writes to a Logger. Either
// way, host lines and library lines come out in one format on one stream.
#if Logging
import Logging

extension ModuleContext {
    /// A swift-log `Logger` for the libraries this module drives (a
    /// Hummingbird `Application`, a `PostgresClient`): its lines go to the
    /// host's log (``HostConfiguration/log``), in the host's format, with
    /// this module's name as the `module` metadata. Its label is the
    /// module's name; its level is the host log's.
    ///
    /// ```swift
    /// let client = PostgresClient(configuration: configuration, backgroundLogger: context.logger)
    /// ```
    public var logger: Logger {
        let log = host.log
        var logger = Logger(label: moduleName) { _ in HostLogForwarder(log: log) }
        logger[metadataKey: "module"] = .string(moduleName)
        return logger
    }
}

extension HostLogHandler {
    /// Writes the host's messages, and its modules' ``ModuleContext/log(_:level:metadata:)``
    /// and ``ModuleContext/logger`` lines, to `logger`, at `logger`'s level:
    /// one format and one stream for the host and every library, the one
    /// the program gave swift-log.
    ///
    /// ```swift
    /// LoggingSystem.bootstrap(StreamLogHandler.standardError)
    /// var configuration = HostConfiguration()
    /// configuration.log = .logger(Logger(label: "server"))
    /// ```
    public static func logger(_ logger: Logger) -> HostLogHandler {
        HostLogHandler(logLevel: LogLevel(logger.logLevel)) { level, message, metadata in
            logger.log(level: level.converted(to: Logger.Level.self), "\(message)", metadata: metadata.mapValues { .string($0) }, source: "SectionRegistry")
        }
    }
}

/// The handler of ``ModuleContext/logger``: each line goes to the host's
/// log, its metadata flattened to strings.
struct HostLogForwarder: LogHandler {
    let log: HostLog
    var metadata: Logger.Metadata = [:]
    var metadataProvider = LoggingSystem.metadataProvider
    var logLevel: Logger.Level

    init(log: HostLog) {
        self.log = log
        self.logLevel = log.handler.logLevel.converted(to: Logger.Level.self)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, provided in provided } }
        if let given = event.metadata { all.merge(given) { _, given in given } }
        var fields = all.mapValues { "\($0)" }
        if let error = event.error { fields["error"] = "\(error)" }
        let module = fields.removeValue(forKey: "module")
        log(LogLevel(event.level), event.message.description, module: module, fields)
    }
}
#endif
