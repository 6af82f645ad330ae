import CSectionRegistry

/// How the host reads its own environment variables
/// (``HostConfiguration/disableVariable``, ``HostConfiguration/traceVariable``
/// and ``HostLogHandler/levelVariable``).
enum HostVariable {
    /// The value of `name` in the process's environment, read with glibc's
    /// `secure_getenv`: `nil` in a process that runs with privileges its
    /// invoker lacks (set-user-ID, set-group-ID, file capabilities), since
    /// whoever starts such a program sets its environment, and must not
    /// choose which of its modules run, which file it writes or what it logs.
    /// Three calls cost less than a copy of the whole environment
    /// (`ProcessInfo.processInfo.environment`, about 0.4 ms at launch).
    static func secureValue(_ name: String) -> String? {
        app_modules_secure_getenv(name).map { String(cString: $0) }
    }
}
