import ArgumentParser

/// `sum N...`: prints the sum of its numbers, after `--delay` milliseconds
/// (a slow command, to interrupt).
public struct SumCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "sum", abstract: "Add numbers.")

    @Argument(help: "The numbers to add.")
    var numbers: [Int] = []

    @Option(help: "Milliseconds to think before answering.")
    var delay = 0

    public init() {}

    public func run() async throws {
        if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
        print(numbers.reduce(0, +))
    }
}
