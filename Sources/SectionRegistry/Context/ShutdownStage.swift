import Synchronization

/// Where a host is on its way down, stored once: whether it is ready for
/// outside work, whether its shutdown began, and whether a second stop cut
/// that shutdown short are three readings of one atomic, and the first
/// stop's reason is kept beside it, set once.
///
/// The stage only moves forward: `notReady` (made, launching) → `ready`
/// (running) → `shuttingDown` → `cutShort`. A shutdown can begin from
/// `notReady` (a stop during launch) and then the host is never ready.
///
/// A second stop is the cancellation of the engine's task, the one that
/// runs the shutdown's steps (``cutShort(announce:)``); each wait of a step turns
/// that cancellation into giving up, once, where it waits. So a new step
/// needs nothing here.
final class ShutdownStage: Sendable {
    private enum Stage: UInt8 {
        case notReady, ready, shuttingDown, cutShort
    }

    private let stage = Atomic<UInt8>(Stage.notReady.rawValue)
    /// The first stop's reason; the task a second stop cancels.
    private let held = Locked<(reason: StopReason?, engine: Task<Void, Never>?)>((nil, nil))

    private var current: Stage {
        Stage(rawValue: stage.load(ordering: .acquiring))!
    }

    /// Running, and no shutdown asked for: what a readiness probe answers.
    var isReady: Bool { current == .ready }

    /// Whether a stop was asked for; unlike `!isReady`, false during launch.
    var hasBegun: Bool { current.rawValue >= Stage.shuttingDown.rawValue }

    /// Why the host stops: the first stop's reason, `nil` before one.
    var reason: StopReason? {
        held.withLock { $0.reason }
    }

    /// The host runs: ready, unless a shutdown began first.
    func markReady() {
        _ = stage.compareExchange(expected: Stage.notReady.rawValue, desired: Stage.ready.rawValue, ordering: .acquiringAndReleasing)
    }

    /// The first stop: the shutdown begins for `reason`.
    ///
    /// - Returns: whether this call began it (`false`: one had begun).
    func begin(_ reason: StopReason) -> Bool {
        held.withLock { held in
            guard held.reason == nil else { return false }
            held.reason = reason
            stage.store(Stage.shuttingDown.rawValue, ordering: .releasing)
            return true
        }
    }

    /// A second stop: the shutdown is cut short, and the engine's task,
    /// which runs it, is cancelled. Once: `announce` is called before the
    /// cancellation, so that what it says comes before what the steps that
    /// give up say; a later call does nothing.
    func cutShort(announce: () -> Void) {
        let engine = held.withLock { held -> Task<Void, Never>?? in
            guard current == .shuttingDown else { return nil }
            stage.store(Stage.cutShort.rawValue, ordering: .releasing)
            announce()
            return .some(held.engine)
        }
        engine??.cancel()
    }

    /// `engine` is the task that performs the host's requests now: a
    /// second stop cancels it (at once, if the shutdown was cut short
    /// already).
    func isRunBy(_ engine: Task<Void, Never>) {
        let cancelled = held.withLock { held in
            held.engine = engine
            return current == .cutShort
        }
        if cancelled { engine.cancel() }
    }
}
