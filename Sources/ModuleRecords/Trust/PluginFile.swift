#if canImport(Glibc)
import Glibc
#endif

/// Why a plugin file is not loaded: it names no regular file, or users other
/// than the process's and root could have changed the code in it. Shared by
/// `ModuleHost.load(plugin:)` and `section-registry check --host`; an
/// `Error` only so that resolving a path can throw it: `load(plugin:)`
/// throws `HostError`, which carries these.
package enum PluginFileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path, made absolute, names no file that can be examined, for
    /// `reason` (as the system says).
    case unreadable(String, reason: String)
    /// The path names a `kind` (a folder, a FIFO, a device, a socket), not a
    /// regular file.
    case notRegularFile(String, kind: String)
    /// The file, or a folder above it, may be written by its group, by every
    /// user or by both: `mode` holds its permission bits. A folder with the
    /// sticky bit is not counted: there, users may not replace each other's
    /// files.
    case writableByOthers(String, isFolder: Bool, mode: UInt32)
    /// The file, or a folder above it, belongs to user `owner`, neither the
    /// process's user `user` nor root.
    case ownedByAnotherUser(String, isFolder: Bool, owner: UInt32, user: UInt32)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .notRegularFile(let path, let kind):
            return "\(path) is a \(kind), not a regular file: name the shared object itself"
        case .writableByOthers(let path, let isFolder, let mode):
            let whom = switch (mode & 0o020 != 0, mode & 0o002 != 0) {
            case (true, true): "its group and every user"
            case (true, false): "its group"
            default: "every user"
            }
            let octal = String(mode & 0o7777, radix: 8)
            return "\(isFolder ? "folder" : "file") \(path) is writable by \(whom) (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)), "
                + "so users other than this process's and root could replace the code: run chmod go-w \(path)"
                + (isFolder ? " (or chmod +t \(path) for a folder that users share)" : "")
        case .ownedByAnotherUser(let path, let isFolder, let owner, let user):
            return "\(isFolder ? "folder" : "file") \(path) is owned by uid \(owner), neither this process's user (uid \(user)) nor root: "
                + "run chown \(user) \(path)"
        }
    }
}

/// A plugin file, found without searching: a relative path is made absolute
/// against the working folder (`dlopen` would search a name without a slash
/// through `LD_LIBRARY_PATH`, RUNPATH and the system folders), and resolved
/// to the file it names, with no symbolic link, `.` or `..` left.
///
/// The resolved path is what is checked and what is loaded: once the file
/// and every folder above it are writable only by the process's user and
/// root, no one else can change what that path names between the check and
/// `dlopen`. (A symbolic link on the way, in a folder someone else may
/// write, could be turned to another file in between.)
package struct PluginFile: Sendable {
    /// The absolute path, free of symbolic links, `.` and `..`.
    package let resolvedPath: String

    /// Resolves `path` against the working folder.
    ///
    /// - Throws: ``PluginFileProblem/unreadable(_:reason:)`` with the
    ///   absolute path, when it names no file.
    package init(_ path: String) throws(PluginFileProblem) {
        let absolute: String
        if path.hasPrefix("/") {
            absolute = path
        } else {
            guard let folder = getcwd(nil, 0) else { throw .unreadable(path, reason: Self.lastError()) }
            absolute = String(cString: folder) + "/" + path
            free(folder)
        }
        guard let resolved = realpath(absolute, nil) else { throw .unreadable(absolute, reason: Self.lastError()) }
        resolvedPath = String(cString: resolved)
        free(resolved)
    }

    /// What is wrong with the file: not a regular file; and, when
    /// `checkingWriters`, the file or a folder above it writable by its group
    /// or every user (a folder with the sticky bit excepted), or owned by
    /// neither `user` nor root. The file first, then its folders from the
    /// nearest up to `/`.
    ///
    /// What it cannot see: access control lists and other security modules
    /// that grant writing beyond the mode bits, file systems mounted from
    /// elsewhere, and the libraries the plugin needs, which the dynamic
    /// linker finds as for any library.
    package func problems(checkingWriters: Bool, user: uid_t = geteuid()) -> [PluginFileProblem] {
        var problems: [PluginFileProblem] = []
        var path = resolvedPath
        var isFolder = false
        while true {
            var info = stat()
            guard lstat(path, &info) == 0 else { return problems + [.unreadable(path, reason: Self.lastError())] }
            let mode = UInt32(info.st_mode)
            if !isFolder, mode & UInt32(S_IFMT) != UInt32(S_IFREG) {
                // dlopen would block on a FIFO, or read a device; nothing of it is code to check.
                return [.notRegularFile(path, kind: Self.kind(of: mode))]
            }
            if checkingWriters {
                if info.st_uid != user && info.st_uid != 0 {
                    problems.append(.ownedByAnotherUser(path, isFolder: isFolder, owner: info.st_uid, user: user))
                }
                if mode & 0o022 != 0 && !(isFolder && mode & UInt32(S_ISVTX) != 0) {
                    problems.append(.writableByOthers(path, isFolder: isFolder, mode: mode))
                }
            }
            guard checkingWriters, path != "/" else { return problems }
            path = Self.folder(of: path)
            isFolder = true
        }
    }

    /// The folder that holds `path`, an absolute path without a trailing
    /// slash.
    private static func folder(of path: String) -> String {
        let parent = path[..<path.lastIndex(of: "/")!]
        return parent.isEmpty ? "/" : String(parent)
    }

    private static func kind(of mode: UInt32) -> String {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFDIR): "folder"
        case UInt32(S_IFIFO): "FIFO"
        case UInt32(S_IFCHR): "character device"
        case UInt32(S_IFBLK): "block device"
        case UInt32(S_IFSOCK): "socket"
        default: "file of another kind"
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
