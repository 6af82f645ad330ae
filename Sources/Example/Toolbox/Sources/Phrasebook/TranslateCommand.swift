import ArgumentParser
import SectionRegistry

/// `translate WORD --to LANGUAGE`: a command that uses a module's service,
/// so it runs with the host.
struct TranslateCommand: HostedCommand {
    static let configuration = CommandConfiguration(commandName: "translate", abstract: "Translate an English word.")

    @Argument(help: "The English word.")
    var word: String

    @Option(help: "The language: de or fr.")
    var to = "de"

    func run(host: ModuleHost) async throws {
        guard let translation = try host.service(Translations.self).translation(of: word, to: to) else {
            throw ValidationError("the phrasebook has no '\(to)' for '\(word)'")
        }
        print(translation)
    }
}
