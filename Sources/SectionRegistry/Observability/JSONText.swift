/// JSON values written as text, for the trace file: what it needs of
/// `JSONEncoder`, without linking Foundation (see ``ProcessEnvironment``).
enum JSONText {
    /// `text` as a JSON string: quoted, with quotes, backslashes and
    /// control characters escaped (RFC 8259, section 7).
    static func string(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// A finite number as JSON: Swift's shortest description (`12.5`,
    /// `1e-05`) is JSON's syntax too.
    static func number(_ value: Double) -> String {
        precondition(value.isFinite, "SectionRegistry: a trace time is not a finite number")
        return "\(value)"
    }
}
