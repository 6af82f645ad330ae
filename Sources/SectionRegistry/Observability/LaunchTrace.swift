#if canImport(Glibc)
import Glibc
#endif

/// A host's hooks, and its timed event handling, as Chrome trace-event JSON
/// (the format Perfetto and `chrome://tracing` open): one complete event
/// (`"ph": "X"`) per module per phase, one per handled event.
///
/// Hooks that run alongside each other (concurrent start) are on tracks
/// (`tid`) of their own, so they show side by side; each module's event
/// handling is on a track named after it. The whole file is rewritten when
/// the host is running and when it has stopped, each time replaced, never
/// written through a symbolic link (``ReplacedFile``).
final class LaunchTrace: Sendable {
    /// One complete event, in the format's field names.
    private struct Event {
        let name: String
        let cat: String
        let ph: String
        /// Microseconds since the host was made.
        let ts: Double
        let dur: Double?
        let pid: Int32
        let tid: Int
        let args: [String: String]

        /// The event as one JSON object, its keys sorted.
        var json: String {
            var fields = ["\"args\":{" + args.sorted { $0.key < $1.key }.map { "\(JSONText.string($0)):\(JSONText.string($1))" }.joined(separator: ",") + "}"]
            fields.append("\"cat\":\(JSONText.string(cat))")
            if let dur { fields.append("\"dur\":\(JSONText.number(dur))") }
            fields.append("\"name\":\(JSONText.string(name))")
            fields.append("\"ph\":\(JSONText.string(ph))")
            fields.append("\"pid\":\(pid)")
            fields.append("\"tid\":\(tid)")
            fields.append("\"ts\":\(JSONText.number(ts))")
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// Hooks are on tracks 1 to 99 (1 unless they ran concurrently), each
    /// module's event handling on a track from this one on.
    private static let firstEventTrack = 100

    let path: String
    /// The trace's zero, on the clock of each kind of span: hooks note a
    /// ``MonotonicInstant``, handlers (timed in client code) a
    /// `ContinuousClock.Instant`.
    private let origin = ContinuousClock.now
    private let hookOrigin = MonotonicInstant.now
    private let pid = getpid()
    private let state = Locked<(events: [Event], eventTracks: [String: Int])>(([], [:]))

    init(path: String) {
        self.path = path
    }

    /// A hook's span; `lane` is its place among hooks that ran alongside it.
    func hook(_ outcome: HookOutcome, lane: Int) {
        add(name: "\(outcome.module) \(outcome.phase)", category: outcome.phase.rawValue,
            since: hookOrigin.duration(to: outcome.start), duration: outcome.duration, track: 1 + lane,
            args: ["module": outcome.module, "phase": outcome.phase.rawValue, "result": outcome.resultName])
    }

    /// A module's handling of an event, from asking to its answer.
    func event(module: String, event: String, start: ContinuousClock.Instant, duration: Duration) {
        let track = state.withLock { state in
            if let track = state.eventTracks[module] { return track }
            let track = Self.firstEventTrack + state.eventTracks.count
            state.eventTracks[module] = track
            return track
        }
        let shortName = event.split(separator: ".").last.map(String.init) ?? event
        add(name: "\(module) \(shortName)", category: "event", since: origin.duration(to: start), duration: duration, track: track,
            args: ["module": module, "event": event])
    }

    private func add(name: String, category: String, since start: Duration, duration: Duration, track: Int, args: [String: String]) {
        let span = Event(name: name, cat: category, ph: "X", ts: Self.microseconds(start),
                         dur: Self.microseconds(duration), pid: pid, tid: track, args: args)
        state.withLock { $0.events.append(span) }
    }

    /// Writes every span so far, with names for the tracks.
    func write() throws {
        let (spans, eventTracks) = state.withLock { ($0.events, $0.eventTracks) }
        let hookTracks = Set(spans.map(\.tid)).filter { $0 < Self.firstEventTrack }.sorted()
        let names = hookTracks.map { ($0, $0 == 1 ? "lifecycle" : "concurrent start \($0)") }
            + eventTracks.map { ($1, "events: \($0)") }.sorted { $0.0 < $1.0 }
        let metadata = names.map { track, name in
            Event(name: "thread_name", cat: "", ph: "M", ts: 0, dur: nil, pid: pid, tid: track, args: ["name": name])
        }
        // One event a line: the file reads (and diffs) by eye too.
        let lines = (metadata + spans).map(\.json)
        let text = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
        try ReplacedFile.write(Array(text.utf8), to: path)
    }

    private static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
