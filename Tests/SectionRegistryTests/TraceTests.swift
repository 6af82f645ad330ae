import Foundation
import Testing
@testable import ModuleRecords
@testable import SectionRegistry

/// The Chrome trace-event file a host writes when asked.
@Suite struct TraceTests {
    let journal = Journal()

    /// The trace of a launch, a broadcast and a shutdown: Base first, then
    /// Left and Right starting alongside each other, then Late after Left.
    func trace(namedBy naming: (inout HostConfiguration, String) -> Void) async throws -> [[String: Any]] {
        let file = try scratchDirectory("trace").appendingPathComponent("launch.json")
        let handlesPing: @Sendable (String) -> @Sendable (inout ScriptedModule) -> Void = { name in
            { $0.onSetUp = { $0.on(Ping.self) { _ in name } } }
        }
        let host = ModuleHost(registry: try declare([
            scripted("Base", level: .service, journal: journal, script: handlesPing("Base")),
            scripted("Left", concurrent: true, journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(20)) } },
            scripted("Right", concurrent: true, journal: journal) { $0.whileStarting = { try await Task.sleep(for: .milliseconds(20)) } },
            scripted("Late", level: .late, after: ["Left"], journal: journal, script: handlesPing("Late")),
        ]), configuration: testConfiguration {
            $0.timesEventHandlers = true
            naming(&$0, file.path)
        })
        try await host.launch()
        _ = await host.broadcast(Ping(payload: 1))
        await host.terminate()
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        return try #require(json?["traceEvents"] as? [[String: Any]])
    }

    static let namings: [@Sendable (inout HostConfiguration, String) -> Void] = [
        { configuration, path in configuration.traceFile = path },
        { configuration, path in configuration.environment[HostConfiguration.traceVariable] = path },
    ]

    @Test(arguments: 0..<2)
    func everyModuleHasOneSpanPerPhase(naming: Int) async throws {
        let events = try await trace(namedBy: Self.namings[naming])
        let spans = events.filter { $0["ph"] as? String == "X" }
        for module in ["Base", "Left", "Right", "Late"] {
            for phase in ["setUp", "start", "ready", "stop"] {
                let matching = spans.filter { $0["name"] as? String == "\(module) \(phase)" }
                #expect(matching.count == 1, "\(module) \(phase)")
                guard let span = matching.first else { continue }
                #expect(span["cat"] as? String == phase)
                #expect((span["ts"] as? Double).map { $0 >= 0 } == true)
                #expect((span["dur"] as? Double).map { $0 >= 0 } == true)
                #expect(span["pid"] as? Int == Int(getpid()))
                #expect((span["args"] as? [String: String]) == ["module": module, "phase": phase, "result": "completed"])
            }
        }
        func span(_ name: String) -> (start: Double, end: Double, track: Int)? {
            spans.first { $0["name"] as? String == name }.flatMap { span in
                guard let ts = span["ts"] as? Double, let dur = span["dur"] as? Double, let tid = span["tid"] as? Int else { return nil }
                return (ts, ts + dur, tid)
            }
        }
        let left = try #require(span("Left start"))
        let right = try #require(span("Right start"))
        #expect(left.track != right.track, "concurrent starts are on tracks of their own")
        #expect(left.start < right.end && right.start < left.end, "and overlap in time")
        #expect(try #require(span("Base start")).end <= left.start)
        #expect(try #require(span("Left start")).end <= (try #require(span("Late start"))).start)
        #expect(try #require(span("Late stop")).end <= (try #require(span("Base stop"))).start, "stops in reverse order")
    }

    @Test func timedEventHandlingIsASpanOnTheModulesTrack() async throws {
        let events = try await trace(namedBy: Self.namings[0])
        let handling = events.filter { $0["cat"] as? String == "event" }
        #expect(handling.compactMap { $0["name"] as? String } == ["Base Ping", "Late Ping"])
        let trackNames = Dictionary(uniqueKeysWithValues: events.filter { $0["ph"] as? String == "M" }.compactMap { event in
            (event["tid"] as? Int).map { ($0, (event["args"] as? [String: String])?["name"] ?? "") }
        })
        #expect(handling.compactMap { ($0["tid"] as? Int).flatMap { trackNames[$0] } } == ["events: Base", "events: Late"])
        #expect(trackNames[1] == "lifecycle")
    }

    @Test func aSymbolicLinkAtTheTracePathIsReplacedNotFollowed() async throws {
        let folder = try scratchDirectory("trace-link")
        let target = folder.appendingPathComponent("precious.txt")
        try Data("keep me\n".utf8).write(to: target)
        let link = folder.appendingPathComponent("launch.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)

        let host = ModuleHost(registry: try declare([scripted("Base", journal: journal)]),
                              configuration: testConfiguration { $0.traceFile = link.path })
        try await host.launch()
        await host.terminate()

        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n", "the link's old target is unchanged")
        let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link is replaced by the trace")
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o022 } == 0, "no one else may write it")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: link)) as? [String: Any]
        #expect((json?["traceEvents"] as? [[String: Any]])?.isEmpty == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["launch.json", "precious.txt"],
                "no temporary file is left behind")
    }
}
