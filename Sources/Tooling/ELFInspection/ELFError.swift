/// Why a file cannot be read as the ELF image the inspector needs.
package enum ELFError: Error, Sendable, Equatable, CustomStringConvertible {
    case notELF
    case notSixtyFourBit
    case bigEndian
    /// The file ends before what its headers describe (`what`).
    case truncated(String)
    /// A header field holds an impossible value.
    case malformed(String)

    package var description: String {
        switch self {
        case .notELF: "not an ELF file (no \\x7fELF magic)"
        case .notSixtyFourBit: "a 32-bit ELF file: only ELF64 is supported"
        case .bigEndian: "a big-endian ELF file: only little-endian is supported"
        case .truncated(let what): "truncated: the file ends inside \(what)"
        case .malformed(let what): "malformed: \(what)"
        }
    }
}
