#if canImport(Glibc)
import Glibc
#endif

/// How the host writes a file (the launch trace): whole, and never through a
/// symbolic link someone planted at its path.
///
/// The bytes go to a new file in the same folder, opened with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` so that it is always a file this call
/// made, then `rename` puts it in the path's place: a symbolic link there is
/// replaced, not followed (writing through it would overwrite its target
/// with the host's rights), and readers see the old file or the whole new
/// one, never half of it.
enum ReplacedFile {
    /// Writes `bytes` to the file at `path`, replacing whatever is there.
    ///
    /// Mode 0644, less the umask: what the host writes (module names and
    /// timings) is no secret, and tools run by other users read it.
    static func write(_ bytes: [UInt8], to path: String) throws(ReplacedFileError) {
        let (temporary, descriptor) = try create(besides: path)
        // Each failure is described before the next call can change errno.
        var failure = writeAll(bytes, to: descriptor) ? nil : ReplacedFileError("cannot write", temporary)
        if close(descriptor) != 0 && failure == nil { failure = ReplacedFileError("cannot write", temporary) }
        if failure == nil && rename(temporary, path) != 0 { failure = ReplacedFileError("cannot rename \(temporary) to", path) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// A new file in the folder of `path`, opened for writing, and its name.
    private static func create(besides path: String) throws(ReplacedFileError) -> (String, Int32) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        while true {
            // A name no one can guess ahead, so that O_EXCL seldom meets an existing file.
            let temporary = "\(folder).\(name).\(String(UInt64.random(in: .min ... .max), radix: 36)).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST else {
                throw ReplacedFileError("cannot create a file in", folder.isEmpty ? "." : folder == "/" ? folder : String(folder.dropLast()))
            }
        }
    }

    /// Writes all of `bytes`; `false`, with `errno` set, if that failed.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}

/// A file the host writes could not be written: what it was doing, to
/// which path, and why, as the system says.
struct ReplacedFileError: Error, CustomStringConvertible {
    let description: String

    /// `action` failed on `path`, for the reason `errno` holds now.
    init(_ action: String, _ path: String) {
        description = "\(action) \(path): \(String(cString: strerror(errno)))"
    }
}
