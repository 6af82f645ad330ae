#if canImport(Glibc)
import Glibc
#endif

/// The process's environment as a dictionary, read from `environ`: what
/// `ProcessInfo.processInfo.environment` gives, without Foundation.
///
/// Foundation is not linked for this alone: loading
/// `libFoundationEssentials.so` cost every process about a million
/// instructions in the dynamic linker, more than a launch of a hundred
/// modules.
enum ProcessEnvironment {
    /// The variables of `environ`, which is null after a `clearenv()`.
    static func current() -> [String: String] {
        variables(in: environ)
    }

    /// Every `NAME=value` entry of a null-terminated list, as `environ`
    /// is; the first of entries with the same name wins, as with `getenv`.
    /// An entry without `=` is not a variable.
    static func variables(in entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = entries else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil {
                    variables[name] = String(text[text.utf8.index(after: equals)...])
                }
            }
            entry += 1
        }
        return variables
    }
}
