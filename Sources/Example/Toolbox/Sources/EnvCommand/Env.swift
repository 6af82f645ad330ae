import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `env NAME`: prints an environment variable, or fails if it is unset.
public struct EnvCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "env", abstract: "Print an environment variable.")

    @Argument(help: "The variable's name.")
    var variable: String

    public init() {}

    public func run() throws {
        guard let value = getenv(variable) else {
            throw ValidationError("'\(variable)' is not set")
        }
        print(String(cString: value))
    }
}
