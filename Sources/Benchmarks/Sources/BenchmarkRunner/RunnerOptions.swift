/// The options of `registry-bench table`.
struct RunnerOptions {
    static let usage = """
        usage: registry-bench host N...
               registry-bench table --generated DIR [--runs R] [--startups S] N...
        """

    /// The folder with the built programs of scripts/generate-bench-package.sh.
    var generated: String
    /// Processes per in-process measurement (discovery, host), medians taken.
    var runs = 5
    /// Runs of each whole program (start-up, whole app), medians taken.
    var startups = 40
    /// The N of the generated programs, in the table's column order.
    var moduleCounts: [Int]

    init(parsing arguments: ArraySlice<String>) throws(RunnerError) {
        var generated: String?
        var counts: [String] = []
        var remaining = arguments
        while let argument = remaining.popFirst() {
            switch argument {
            case "--generated":
                generated = try Self.value(of: argument, in: &remaining)
            case "--runs":
                runs = try Self.positive(Self.value(of: argument, in: &remaining), argument)
            case "--startups":
                startups = try Self.positive(Self.value(of: argument, in: &remaining), argument)
            default:
                counts.append(argument)
            }
        }
        guard let generated else { throw RunnerError("table needs --generated DIR\n\(Self.usage)") }
        self.generated = generated
        moduleCounts = try Self.moduleCounts(counts[...])
    }

    /// The module counts N..., each a positive integer; at least one.
    static func moduleCounts(_ arguments: ArraySlice<String>) throws(RunnerError) -> [Int] {
        guard !arguments.isEmpty else { throw RunnerError("no module count given\n\(usage)") }
        var counts: [Int] = []
        for argument in arguments {
            counts.append(try positive(argument, "a module count"))
        }
        return counts
    }

    private static func value(of option: String, in remaining: inout ArraySlice<String>) throws(RunnerError) -> String {
        guard let value = remaining.popFirst() else { throw RunnerError("\(option) needs a value\n\(usage)") }
        return value
    }

    private static func positive(_ text: String, _ what: String) throws(RunnerError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw RunnerError("\(what): '\(text)' is not a positive integer\n\(usage)")
        }
        return value
    }
}
