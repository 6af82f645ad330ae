/// Words in other languages: the service `translate` looks up.
public struct Translations: Sendable {
    /// Each English word's translations, by language code.
    let words: [String: [String: String]]

    /// The few words the example knows.
    static let builtIn = Translations(words: [
        "hello": ["de": "hallo", "fr": "bonjour"],
        "thanks": ["de": "danke", "fr": "merci"],
    ])

    /// `word` in `language`, if the phrasebook has it.
    public func translation(of word: String, to language: String) -> String? {
        words[word.lowercased()]?[language]
    }
}
