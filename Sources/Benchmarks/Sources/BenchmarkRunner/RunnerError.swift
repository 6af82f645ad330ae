/// Why the runner stopped: bad usage or a benchmark program that failed,
/// said in one line.
struct RunnerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
