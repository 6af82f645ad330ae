// swift package check-modules --product PRODUCT [-c debug|release] [--expect NAME ...]
//
// Builds PRODUCT with SwiftPM and runs `section-registry check` on the
// binary, passing each --expect on: the verifier run the way Swift
// developers run one, without finding the bin folder and the inspector by
// hand. Exits with check's status (0 all is well, 1 a problem, 2 a file
// that cannot be inspected); a failed build exits 1.
import Foundation
import PackagePlugin

@main
struct CheckModules: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            Diagnostics.error("\(error)\nusage: swift package check-modules --product PRODUCT [-c debug|release] [--expect NAME ...]")
            exit(2)
        }
        let build = try packageManager.build(
            .product(options.product),
            parameters: .init(configuration: options.configuration, logging: .concise))
        guard build.succeeded else {
            print(build.logText, terminator: "")
            Diagnostics.error("check-modules: building \(options.product) failed")
            exit(1)
        }
        guard let binary = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == options.product })
                ?? build.builtArtifacts.first(where: { $0.url.lastPathComponent == "lib\(options.product).so" }) else {
            Diagnostics.error("check-modules: the build of \(options.product) made no executable or shared object of that name")
            exit(2)
        }
        // A plugin names its tools by target: the executable target section-registry.
        let inspector = try context.tool(named: "section-registry")
        let check = Process()
        check.executableURL = inspector.url
        check.arguments = ["check", binary.url.path] + options.expected.flatMap { ["--expect", $0] }
        try check.run()
        check.waitUntilExit()
        exit(check.terminationStatus)
    }
}

/// The command's arguments.
struct Options {
    var product = ""
    var configuration = PackageManager.BuildConfiguration.debug
    var expected: [String] = []

    /// A wrong argument, said as the usage line's complement.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(Invalid) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(argument) needs a value") }
            switch argument {
            case "--product": product = value
            case "--expect": expected.append(value)
            case "-c", "--configuration":
                switch value {
                case "debug": configuration = .debug
                case "release": configuration = .release
                default: throw Invalid(description: "the configuration is debug or release, not \(value)")
                }
            default: throw Invalid(description: "unknown argument \(argument)")
            }
        }
        guard !product.isEmpty else { throw Invalid(description: "--product is required") }
    }
}
