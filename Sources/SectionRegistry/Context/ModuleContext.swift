/// What the host shares with a module: launch arguments, environment,
/// configuration, services, events. One per module, all backed by one host:
/// no global singleton.
public struct ModuleContext: Sendable {
    /// The module this context belongs to; services and handlers it
    /// registers are recorded under this name.
    public let moduleName: String
    /// The module's place in the start order.
    let rank: Int
    let host: HostState
    /// The module's life, shared with its host.
    @usableFromInline
    let life: ModuleLife

    init(moduleName: String, rank: Int, host: HostState) {
        self.moduleName = moduleName
        self.rank = rank
        self.host = host
        self.life = ModuleLife(moduleName: moduleName)
    }

    /// The launch arguments.
    public var arguments: [String] { host.configuration.arguments }

    /// The environment.
    public var environment: [String: String] { host.configuration.environment }

    /// The configuration value for `key`, from ``HostConfiguration/values``.
    public subscript(configuration key: String) -> String? {
        host.configuration.values[key]
    }

    /// Writes a message to the host's log (``HostConfiguration/log``), at
    /// `level` (``LogLevel/info`` by default), with `metadata` and this
    /// module's name as the `module` metadata (a `module` key of `metadata`
    /// is replaced). The message is built only if the log takes `level`.
    ///
    /// ```swift
    /// context.log("cache warmed", metadata: ["entries": "\(count)"])
    /// context.log("state: \(expensiveDump())", level: .debug)   // not built at info
    /// ```
    public func log(_ message: @autoclosure () -> String, level: LogLevel = .info, metadata: [String: String] = [:]) {
        host.log(level, message(), module: moduleName, metadata)
    }

    /// Offers a service to every module, found by its type: usually a
    /// protocol (`PaymentGateway.self`). `make` runs on the first lookup
    /// (``ServiceLifetime/shared``) or on every one (``ServiceLifetime/perLookup``).
    ///
    /// `make` may capture this context to look up other services; the host
    /// forgets it when this module stops.
    ///
    /// - Throws: ``ServiceError`` (``ServiceError/Code/duplicate``) if
    ///   another module registered the type.
    public func register<Service: Sendable>(
        _ type: Service.Type,
        lifetime: ServiceLifetime = .shared,
        make: @escaping @Sendable () throws -> Service
    ) throws(ServiceError) {
        let registration = try host.services.register(type, by: life, lifetime: lifetime, make: make)
        guard registration.accepted else {
            let error = ServiceError.moduleStopped(fullName(of: type), module: moduleName)
            if registration.firstRefusal { host.log(.warning, error.description, module: moduleName) }
            throw error
        }
    }

    /// The service registered for `type`.
    ///
    /// - Throws: ``ServiceError`` (``ServiceError/Code/missing``)
    ///   naming the service and this module when no module registered it.
    public func service<Service: Sendable>(_ type: Service.Type) throws(ServiceError) -> Service {
        try host.services.resolve(type, for: moduleName)
    }

    /// Handles `Event`: `handler` returns the reply, or `nil` to leave the
    /// event to the modules after this one.
    ///
    /// For an event without a reply (`Reply == Void`) a handler that returns
    /// nothing handles it:
    ///
    /// ```swift
    /// context.on(CacheFlush.self) { _ in await cache.flush() }      // handled
    /// context.on(PriceQuery.self) { query in prices[query.sku] }    // a reply, or nil
    /// ```
    ///
    /// A closure that does not `await` is taken as a synchronous handler: a
    /// dispatch calls it as a plain function, with no async frame and no hop
    /// to an executor.
    public func on<Event: ModuleEvent>(_ type: Event.Type, handler: @escaping @Sendable (Event) throws -> Event.Reply?) {
        add(.replyingNow(handler))
    }

    /// Handles `Event` with a handler that may suspend: it returns the reply,
    /// or `nil` to leave the event to the modules after this one. See
    /// ``on(_:handler:)-(_,(Event)->Event.Reply?)``.
    public func on<Event: ModuleEvent>(_ type: Event.Type, handler: @escaping @Sendable (Event) async throws -> Event.Reply?) {
        add(.direct(handler))
    }

    /// Handles `Event` with an answer given later through `responder`, from
    /// any task: for modules that bridge callbacks. The first answer counts.
    public func on<Event: ModuleEvent>(
        _ type: Event.Type,
        answer handler: @escaping @Sendable (Event, EventResponder<Event.Reply>) async throws -> Void
    ) {
        add(.deferred(handler))
    }

    private func add<Event: ModuleEvent>(_ body: EventHandler<Event, Event.Reply>.Body) {
        let registration = host.handlers.add(EventHandler(module: moduleName, life: life, rank: rank, body: body))
        if registration.firstRefusal {
            host.log(.warning, "SectionRegistry: module '\(moduleName)' added a handler for \(fullName(of: Event.self)) after it stopped "
                + "(a hook or handler left behind past its time limit): refused, and every later registration of it", module: moduleName)
        }
    }

    /// Asks the host to shut down: every started module's `run` drained or
    /// cancelled and its stop hook called, in reverse start order, as
    /// ``ModuleHost/terminate()`` does. Returns at once: the shutdown waits
    /// for the hook, `run` or handler that calls it. For an admin endpoint,
    /// or a worker that hits a fatal condition; under
    /// ``ModuleHost/main(configuration:)`` the process exits 0 once every
    /// module stopped cleanly.
    ///
    /// ```swift
    /// router.post("/admin/shutdown") { _, _ in
    ///     context.requestShutdown()
    ///     return HTTPResponse.Status.accepted
    /// }
    /// ```
    public func requestShutdown() {
        host.requestStop.withLock { $0 }?(moduleName)
    }

    // MARK: Long-running work

    /// Runs `operation`, and calls `handler` once if the host asks this
    /// module's ``AppModule/run(_:)`` to finish (to drain) while `operation`
    /// runs; at once if it has asked already. Never called after `operation`
    /// returned: the handler's scope is the call, as with
    /// swift-service-lifecycle's `withGracefulShutdownHandler`.
    ///
    /// The library's one way to hear the drain. Under the `ServiceLifecycle`
    /// trait, swift-service-lifecycle's `gracefulShutdown()`,
    /// `withGracefulShutdownHandler` and `cancelWhenGracefulShutdown` inside
    /// a `run` hear the same request, so a plain `try await app.run()`
    /// (Hummingbird) drains with nothing else written.
    ///
    /// ```swift
    /// func run(_ context: ModuleContext) async throws {
    ///     try await context.withDrainHandler {
    ///         try await server.serve()              // returns once shut down
    ///     } onDrain: {
    ///         server.beginGracefulShutdown()        // finish what is in flight
    ///     }
    /// }
    /// ```
    @inlinable
    public func withDrainHandler<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T,
        onDrain handler: @escaping @Sendable () -> Void
    ) async throws(Failure) -> T {
        try await life.withDrainHandler(operation, onDrain: handler)
    }

    /// ``withDrainHandler(isolation:_:onDrain:)`` for a `run` that takes
    /// work from outside (a listener, a queue consumer): `stopIntake` is
    /// called once when the host stops every module's intake, which it does
    /// before any `run` drains, so that no new work arrives anywhere while
    /// the modules finish what they took. The host waits for every module's
    /// `stopIntake` to return (within ``HostConfiguration/drainTimeLimit``,
    /// which covers the intake and the drain together), then drains the
    /// `run`s in reverse start order: `handler` is called in this `run`'s
    /// turn.
    ///
    /// ```swift
    /// func run(_ context: ModuleContext) async throws {
    ///     try await context.withDrainHandler {
    ///         try await server.serve()              // returns once shut down
    ///     } onIntakeStop: {
    ///         await server.stopAccepting()          // no new connection
    ///     } onDrain: {
    ///         server.beginGracefulShutdown()        // finish what is in flight
    ///     }
    /// }
    /// ```
    ///
    /// Both handlers are scoped to the call, as the drain's is: neither is
    /// called once `operation` has returned; each is called at once if its
    /// step came before the call.
    public func withDrainHandler<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T,
        onIntakeStop stopIntake: @escaping @Sendable () async -> Void,
        onDrain handler: @escaping @Sendable () -> Void
    ) async throws(Failure) -> T {
        try await life.withDrainHandler(operation, onIntakeStop: stopIntake, onDrain: handler)
    }

    /// Whether the host is ready for outside work: `true` while every
    /// module runs, `false` from the moment a shutdown is asked for (the
    /// first step of the shutdown, before the lame-duck delay). What a
    /// readiness probe answers: 200 while `true`, 503 after.
    public var isHostReady: Bool {
        host.shutdown.isReady
    }

    /// Runs `operation` in a child task that is cancelled when the host asks
    /// this module's `run` to finish: the one line a `run` that ends by
    /// cancellation (a loop that ticks) writes, so that it ends at once in
    /// its turn instead of holding the shutdown to
    /// ``HostConfiguration/drainTimeLimit``. The shape of
    /// swift-service-lifecycle's `cancelWhenGracefulShutdown`.
    ///
    /// A `CancellationError` that `operation` throws once the drain was
    /// asked for ends the `run` cleanly; the host does not count it as a
    /// failure.
    ///
    /// ```swift
    /// func run(_ context: ModuleContext) async throws {
    ///     try await context.cancelOnDrain {
    ///         while true {
    ///             try await Task.sleep(for: .seconds(1))
    ///             await cache.expireOldEntries()
    ///         }
    ///     }
    /// }
    /// ```
    public func cancelOnDrain<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        // The group returns once the work has ended: a run that still holds
        // the drain after this holds it elsewhere, and its warning says so.
        defer { if life.cancelledWork == .running { life.cancelledWork = .ended } }
        return try await withThrowingTaskGroup(of: DrainRace<T>.self) { group in
            group.addTask { .ended(try await operation()) }
            group.addTask {
                await life.drainRequested()
                return .drainRequested
            }
            defer { group.cancelAll() }
            while true {
                // Once the drain is asked for, the operation is cancelled,
                // and its own end (a value, or what it throws) is the answer.
                switch try await group.next() {
                case .ended(let value): return value
                case .drainRequested:
                    life.cancelledWork = .running
                    group.cancelAll()
                case nil: throw CancellationError()
                }
            }
        }
    }

    /// How long the whole drain may take (``HostConfiguration/drainTimeLimit``):
    /// for a library with a shutdown limit of its own (Vapor's
    /// `shutdownTimeout`), which should end before the host's.
    public var drainTimeLimit: Duration { host.configuration.drainTimeLimit }

    /// How much of ``drainTimeLimit`` is left for this module's `run`:
    /// `nil` until the host's intake step (the intake and the drain share
    /// the limit), then the time until the host stops waiting and cancels
    /// the `run`, zero once past. For a `run` that drains late, after the
    /// modules that stopped before it, to give its own work what is left:
    ///
    /// ```swift
    /// } onDrain: {
    ///     queue.finish(within: context.drainTimeLeft ?? context.drainTimeLimit)
    /// }
    /// ```
    public var drainTimeLeft: Duration? {
        life.drainDeadline.map { max(.zero, $0 - .now) }
    }

    /// Tells the host that this module's `run` is ready: its server has
    /// bound its port, its client is connected. Counts for a module that
    /// declares ``AppModule/runReportsReady``: the modules after it start,
    /// and the host is running, only once it has called this. Called by a
    /// module that does not declare it, it changes nothing and the host
    /// logs a warning naming the module. Later calls change nothing.
    public func reportReady() {
        reportReady(undeclared: "called context.reportReady(), but does not declare `var runReportsReady: Bool { true }`", fix: "Declare it, or remove the call.")
    }

    /// ``reportReady()``, with the warning for a module that does not
    /// declare readiness saying what reported (`what`) and how to mend it.
    func reportReady(undeclared what: String, fix: String) {
        guard life.reportReady() else { return }
        host.log(.warning, "SectionRegistry: module '\(moduleName)' \(what): the host did not wait for it, and the modules "
            + "after it may have started before it was ready. \(fix)", module: moduleName)
    }
}

/// Which of ``ModuleContext/cancelOnDrain(_:)``'s two tasks ended.
private enum DrainRace<T: Sendable>: Sendable {
    case ended(T)
    case drainRequested
}
