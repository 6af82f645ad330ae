/// The options of `registry-bench table` and `registry-bench peer`.
struct RunnerOptions {
    static let usage = """
        usage: registry-bench host N...
               registry-bench table --generated DIR [--runs R] [--startups S] N...
               registry-bench peer --bin DIR [--runs R] N...
        """

    /// The folder of the programs: those scripts/generate-bench-package.sh
    /// generated (`table`'s `--generated`), or the drain peers (`peer`'s
    /// `--bin`).
    var programs: String
    /// Processes per in-process measurement (discovery, host), medians
    /// taken; for `peer`, runs of each peer.
    var runs: Int
    /// Runs of each whole program (start-up, whole app), medians taken.
    var startups = 40
    /// The N of the generated programs, in the table's column order.
    var moduleCounts: [Int]

    /// Parses the options of a subcommand whose programs' folder is given
    /// with `folderOption`, and whose `--runs` is `runs` unless given.
    init(parsing arguments: ArraySlice<String>, folderOption: String, runs: Int) throws(RunnerError) {
        var programs: String?
        var counts: [String] = []
        var remaining = arguments
        self.runs = runs
        while let argument = remaining.popFirst() {
            switch argument {
            case folderOption:
                programs = try Self.value(of: argument, in: &remaining)
            case "--runs":
                self.runs = try Self.positive(Self.value(of: argument, in: &remaining), argument)
            case "--startups":
                startups = try Self.positive(Self.value(of: argument, in: &remaining), argument)
            default:
                counts.append(argument)
            }
        }
        guard let programs else { throw RunnerError("\(folderOption) DIR is missing\n\(Self.usage)") }
        self.programs = programs
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
