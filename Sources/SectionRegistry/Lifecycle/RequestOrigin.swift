/// Where a request to a host comes from, carried by the tasks a host
/// starts: a host is told apart by the identity of its request queue.
///
/// The engine's task and every task it starts (hook runners, and the
/// handlers hooks call) carry ``engine(_:)``; each module's `run` carries
/// ``run(_:_:)``. So a request from inside the request it would wait for is
/// refused at once instead of waiting forever, and a request from a `run`
/// never waits for that very `run` to end.
enum RequestOrigin: Sendable {
    /// Outside every host.
    case outside
    /// The engine of a host: a request it performs, a hook it calls, a
    /// handler such a hook calls.
    case engine(ObjectIdentifier)
    /// The `run` of a module of a host, and what it calls.
    case run(ObjectIdentifier, ModuleLife)

    /// The calling task's origin. A case of its own for outside, not an
    /// optional: the metadata of a task-local of an optional cost the first
    /// launch of every process about 45,000 instructions more to make.
    @TaskLocal static var current: RequestOrigin = .outside
}
