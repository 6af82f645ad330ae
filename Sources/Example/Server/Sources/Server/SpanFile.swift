import Foundation
import InMemoryTracing
import Tracing

/// The host's finished spans, written to a file as JSON lines at exit: one
/// object a span, with its trace, span and parent ids, name, attributes,
/// events, status and times (nanoseconds since the epoch).
enum SpanFile {
    nonisolated(unsafe) static var path = ""
    static let tracer = InMemoryTracer()

    static func write() {
        var lines = ""
        for span in tracer.finishedSpans {
            var attributes: [String: String] = [:]
            span.attributes.forEach { key, value in
                if case .string(let text) = value { attributes[key] = text } else { attributes[key] = "\(value)" }
            }
            let object: [String: Any] = [
                "name": span.operationName,
                "traceID": span.traceID,
                "spanID": span.spanID,
                "parentSpanID": span.parentSpanID ?? NSNull(),
                "attributes": attributes,
                "events": span.events.map(\.name),
                "error": span.status?.code == .error,
                "start": span.startInstant.nanosecondsSinceEpoch,
                "end": span.endInstant.nanosecondsSinceEpoch,
            ]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { continue }
            lines += String(decoding: data, as: UTF8.self) + "\n"
        }
        if !FileManager.default.createFile(atPath: path, contents: Data(lines.utf8)) {
            FileHandle.standardError.write(Data("notes-server: cannot write the spans to \(path)\n".utf8))
        }
    }
}
