import ArgumentParser

/// `greet --name NAME`: prints a greeting.
public struct GreetCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "greet", abstract: "Print a greeting.")

    @Option(help: "Who to greet.")
    var name = "world"

    public init() {}

    public func run() {
        print("Hello, \(name)!")
    }
}
