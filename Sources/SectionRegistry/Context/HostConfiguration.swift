#if Configuration
import Configuration
#endif
#if Tracing
import Tracing
#endif
#if Metrics
import CoreMetrics
#endif

/// How a ``ModuleHost`` runs its modules.
public struct HostConfiguration: Sendable {
    /// The environment variable that disables modules without a rebuild:
    /// names separated by commas, as in `SECTION_REGISTRY_DISABLE=Billing,Search`.
    /// Read with `secure_getenv` (see ``environment``): a privileged process
    /// ignores it. A module marked `APP_MODULE_REQUIRED` cannot be disabled.
    public static let disableVariable = "SECTION_REGISTRY_DISABLE"

    /// The launch arguments modules see in ``ModuleContext/arguments``.
    public var arguments: [String] = CommandLine.arguments
    /// The environment modules see in ``ModuleContext/environment``: the
    /// process's, read once, when first asked for, unless set here.
    ///
    /// The host reads its own variables (``disableVariable``,
    /// ``traceVariable``) from a dictionary set here, as tests do; otherwise
    /// from the process with glibc's `secure_getenv`, which gives nothing in
    /// a privileged process (set-user-ID, set-group-ID, file capabilities):
    /// whoever starts such a program cannot disable its modules or choose the
    /// file it writes. In such a process the default leaves those variables
    /// out, so that a changed copy set here does not hand them back; the
    /// rest of the environment is there, privileged or not: a module that
    /// reads it decides what to trust.
    public var environment: [String: String] {
        get { explicitEnvironment ?? Self.processEnvironment }
        set { explicitEnvironment = newValue }
    }
    /// ``environment`` once set. `nil` until then, so that making a
    /// configuration does not copy the process's environment (about 0.4 ms).
    private var explicitEnvironment: [String: String]?
    private static let processEnvironment = withoutWithheld(ProcessEnvironment.current())

    /// `environment` without those of the host's variables that
    /// `HostVariable.secureValue(_:)` withholds in this process.
    private static func withoutWithheld(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        for name in [disableVariable, traceVariable, HostLogHandler.levelVariable] where HostVariable.secureValue(name) == nil {
            environment[name] = nil
        }
        return environment
    }

    /// Configuration values, by key, for ``ModuleContext/subscript(configuration:)``.
    public var values: [String: String] = [:]
    /// Modules not to create or start, in addition to those named in
    /// ``disableVariable``. A module that comes after a disabled one is an
    /// error, not silently disabled too.
    public var disabledModules: Set<String> = []
    /// How long each module may take to stop: 10 seconds by default. Past
    /// it, the stop hook is cancelled and left behind (reported
    /// ``HookOutcome/Result/timedOut``) and shutdown goes on with the next
    /// module. Also how long a cancelled ``AppModule/run(_:)`` has to
    /// return, and a hook running when a launch or load is interrupted (then
    /// ``HookOutcome/Result/cutOff``).
    public var stopTimeLimit: Duration = .seconds(10)
    /// How long the whole drain may take: 30 seconds by default, what
    /// Kubernetes gives a pod between SIGTERM and SIGKILL. At shutdown (and
    /// for ``ModuleHost/remove(_:)`` and ``ModuleHost/unload(plugin:)``) the
    /// `run`s are asked to finish, one after the other in reverse start
    /// order; past this limit, those still running are cancelled (each
    /// reported ``HookOutcome/Result/timedOut``, the one that held the drain
    /// named with the fix: the shutdown is not clean) and have
    /// ``stopTimeLimit`` to return. A module reads it from
    /// ``ModuleContext/drainTimeLimit``. See <doc:Lifecycle>.
    public var drainTimeLimit: Duration = .seconds(30)

    /// How long the host goes on serving after a shutdown is asked for,
    /// with ``ModuleHost/isReady`` already `false`, before it stops the
    /// modules' intake and drains them: the time a load balancer needs to
    /// see the readiness probe fail and send nothing more (Kubernetes: the
    /// probe's `periodSeconds` times its `failureThreshold`, plus the time
    /// the endpoints take to update). Zero by default: a host behind no
    /// balancer stops at once. A second SIGTERM or SIGINT ends the delay
    /// at once. Kubernetes' `terminationGracePeriodSeconds` must cover
    /// `lameDuckDelay + drainTimeLimit + stopTimeLimit`, or the kubelet's
    /// SIGKILL cuts the shutdown short. See <doc:Lifecycle#Shutdown-step-by-step>.
    public var lameDuckDelay: Duration = .zero
    /// How long each module may take to reload: 10 seconds by default. Past
    /// it, the reload hook is cancelled and ``ModuleHost/reload()`` goes on
    /// without it (the outcome says it timed out): a module stuck in reload
    /// cannot hold up the others, or a SIGTERM.
    public var reloadTimeLimit: Duration = .seconds(10)
    /// How long each module may take to start; `nil`, the default, waits as
    /// long as it takes (a stop still interrupts it). A module over the
    /// limit is cancelled and fails the launch (and is not stopped: it never
    /// said it started).
    public var startTimeLimit: Duration? = nil
    /// How long the `run` of a module that declares
    /// ``AppModule/runReportsReady`` has, from its start, to call
    /// ``ModuleContext/reportReady()``: 30 seconds by default; `nil` waits
    /// as long as it takes (a stop still interrupts it). Past it the launch
    /// fails, naming the module, and its `run` is ended first.
    public var readinessTimeLimit: Duration? = .seconds(30)
    /// How long ``ModuleHost/gather(_:)`` waits for a module's answer, unless
    /// the event sets ``ModuleEvent/answerTimeLimit``: 5 seconds by default.
    /// Past it, the answer is ``EventOutcome/timedOut`` and the handler is
    /// cancelled.
    public var answerTimeLimit: Duration = .seconds(5)
    /// The events ``ModuleHost/run()`` broadcasts on SIGUSR1 and SIGUSR2.
    public var userSignalEvents: [UserSignal: any ModuleEvent] = [:]
    /// Whether to time every event handler (off by default: two clock reads
    /// per handler). Launch phases are always timed.
    public var timesEventHandlers = false
    /// Where ``ModuleContext/log(_:level:metadata:)`` and the host's own
    /// messages go: by default standard error, at the level in
    /// ``HostLogHandler/levelVariable`` (`info` when unset). To choose
    /// another default and still let the variable override it:
    /// `.standardError(logLevel: HostLogHandler.environmentLevel(default: .warning))`.
    public var log: HostLogHandler = .standardError()
    /// Whether a failed ``ModuleHost/launch()`` (or ``ModuleHost/run()``)
    /// is logged, at ``LogLevel/error``, as well as thrown: on by default,
    /// so that it is seen even where a caller drops the error. Turn it off
    /// where the program reports the thrown error itself, so that it
    /// appears once; ``ModuleHost/main(configuration:)`` does.
    public var logsLaunchFailure = true
    /// A hook that completes but takes longer than this is logged as a
    /// warning, with the module's name and how long it ran.
    public var slowHookThreshold: Duration = .seconds(1)
    /// Whether ``ModuleHost/run()`` serves the process's signals (SIGTERM,
    /// SIGINT, SIGHUP, SIGUSR1, SIGUSR2). Turn it off when a supervisor owns
    /// the signals and ends the host by cancelling the task that runs it (a
    /// `ServiceGroup`); left on there, the host finds SIGTERM taken and logs
    /// a warning naming this setting.
    public var servesSignals = true
    /// Where to write a Chrome trace-event JSON of the host's hooks and
    /// timed event handling (see ``timesEventHandlers``); when `nil`, the
    /// file named in ``traceVariable``, if any.
    public var traceFile: String? = nil

    /// The environment variable that names a trace file, as in
    /// `SECTION_REGISTRY_TRACE=/tmp/launch.json`. Read with `secure_getenv`
    /// (see ``environment``): a privileged process ignores it.
    public static let traceVariable = "SECTION_REGISTRY_TRACE"

    /// Whether ``ModuleHost/load(plugin:)`` loads a plugin file that users
    /// other than this process's and root could have changed: a file or a
    /// folder above it that its group or every user may write (a folder
    /// with the sticky bit excepted), or that another user owns. Off by
    /// default, and meant for development only, say for a plugin built in a
    /// shared folder: with it on, anyone who may write such a file or
    /// folder chooses code this process runs. A relative path is made
    /// absolute against the working folder either way, and the file must
    /// be a regular file.
    public var trustsPluginFiles = false

    /// How long the work of ``ModuleHost/main(configuration:_:)`` has to
    /// end once SIGINT or SIGTERM cancelled it: 1 second by default. Past
    /// it, the work is left behind, the modules are stopped and the process
    /// exits, as a plain command-line tool dies at once on Ctrl-C.
    public var cancelledWorkTimeLimit: Duration = .seconds(1)

    #if Tracing
    /// The tracer of the host's spans (the launch, each hook a module
    /// writes, the shutdown and its steps; <doc:Tracing>) and of
    /// ``ModuleContext/tracer``. `nil`, the default: the tracer the
    /// program bootstrapped (`InstrumentationSystem.tracer`), read when the
    /// host is made; with none bootstrapped, that one records nothing.
    /// A test sets an `InMemoryTracer` here.
    public var tracer: (any Tracer)? = nil
    #endif

    #if Metrics
    /// The factory of the host's metrics (modules running, each hook's and
    /// drain's duration, shutdowns, hooks that did not end cleanly;
    /// <doc:Metrics>). `nil`, the default: the factory the program
    /// bootstrapped (`MetricsSystem.factory`), read when the host is made.
    /// A test sets a `TestMetrics` here.
    public var metricsFactory: (any MetricsFactory)? = nil
    #endif

    #if Configuration
    /// Where ``ModuleContext/config`` and the host's own settings are read
    /// (<doc:Configuration>), queried in order until one has the key.
    /// `nil`, the default: the environment (``environment``), so that
    /// `orders.database.host` of module `Orders` is `ORDERS_DATABASE_HOST`.
    /// A program adds files and arguments here:
    ///
    /// ```swift
    /// configuration.configProviders = [
    ///     CommandLineArgumentsProvider(),
    ///     EnvironmentVariablesProvider(),
    ///     try await ReloadingFileProvider<JSONSnapshot>(filePath: "/etc/app/config.json"),
    /// ]
    /// ```
    ///
    /// A provider that is a swift-service-lifecycle `Service` (a
    /// `ReloadingFileProvider`) runs, in ``ModuleHost/run()``, from before the
    /// first module's `setUp` until the last module stopped; each change it
    /// finds calls the modules' ``AppModule/reload(_:)``.
    public var configProviders: [any ConfigProvider]? = nil
    #endif

    public init() {}

    /// The configuration of a command-line tool: the default, but that the
    /// log shows warnings and errors only, unless
    /// ``HostLogHandler/levelVariable`` says otherwise (a tool's normal run
    /// writes nothing to standard error). The default of
    /// ``ModuleHost/main(configuration:_:)``.
    public static var commandLine: HostConfiguration {
        var configuration = HostConfiguration()
        configuration.log = .standardError(logLevel: HostLogHandler.environmentLevel(default: .warning))
        return configuration
    }

    /// ``disabledModules`` plus the names in ``disableVariable``.
    var allDisabledModules: Set<String> {
        let fromEnvironment = (hostVariable(Self.disableVariable) ?? "")
            .split(separator: ",")
            .map { $0.filter { !$0.isWhitespace } }
        return disabledModules.union(fromEnvironment)
    }

    /// ``traceFile``, else the file named in ``traceVariable``.
    var tracePath: String? {
        traceFile ?? hostVariable(Self.traceVariable).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One of the host's own variables: from ``environment`` when it was
    /// set, else from the process with `secure_getenv`.
    func hostVariable(_ name: String) -> String? {
        if let explicitEnvironment { return explicitEnvironment[name] }
        return HostVariable.secureValue(name)
    }
}

/// The two signals an app can map to its own events.
public enum UserSignal: Sendable, Hashable {
    case usr1
    case usr2
}
