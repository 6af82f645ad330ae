extension PluginLibrary {
    /// The path to give `dlopen` for the plugin at `path`: made absolute
    /// against the working folder, never searched for, and resolved, so that
    /// the file checked is the file loaded (``PluginFile``).
    ///
    /// - Parameter checkingWriters: whether to refuse a file that users other
    ///   than this process's and root could have changed (see
    ///   ``HostConfiguration/trustsPluginFiles``). A file that is not a
    ///   regular file is refused either way.
    /// - Throws: ``HostError`` of code ``HostError/Code/cannotOpen`` when
    ///   the path names no file, ``HostError/Code/untrustedFile`` with
    ///   every problem found.
    static func trustedPath(_ path: String, checkingWriters: Bool) throws(HostError) -> String {
        let file: PluginFile
        do {
            file = try PluginFile(path)
        } catch {
            throw .cannotOpen(plugin: path, reason: error.description)
        }
        let problems = file.problems(checkingWriters: checkingWriters)
        guard problems.isEmpty else { throw .untrustedFile(plugin: path, problems) }
        return file.resolvedPath
    }
}
