import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Which plugin files `load(plugin:)` trusts: real files, with real modes and
/// owners, loaded into the plugin example's host. The tests run as root here,
/// so "owned by the process's user or root" holds for every file they make;
/// changing an owner needs root, and those tests need it.
extension PluginTests {
    /// A folder of its own under the temporary folder (which has the sticky
    /// bit), holding a copy of the example's plugin, `libReportsPlugin.so`.
    func copiedPlugin(_ example: (host: String, reports: String)) throws -> (folder: URL, plugin: String) {
        let folder = try scratchDirectory("plugin-trust")
        let plugin = folder.appendingPathComponent("libReportsPlugin.so")
        try FileManager.default.copyItem(atPath: example.reports, toPath: plugin.path)
        #expect(chmod(folder.path, 0o755) == 0 && chmod(plugin.path, 0o755) == 0)
        return (folder, plugin.path)
    }

    @Test func aPluginInAFolderEveryUserMayWriteIsRefusedAndLoadsOnceTheFolderIsFixed() async throws {
        let example = try await builtExample()
        let (folder, plugin) = try copiedPlugin(example)
        #expect(chmod(folder.path, 0o777) == 0)
        let refused = try await runCommand([example.host, plugin])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains(
            "SectionRegistry: refusing to load plugin \(plugin): folder \(folder.path) is writable by its group and every user (mode 0777), "
                + "so users other than this process's and root could replace the code: run chmod go-w \(folder.path)"),
                "\(refused.output)")
        #expect(!refused.output.contains("Reports: started"))
        ArticleQuotes.expectQuoted(in: "PluginsAndSharedLibraries.md", startingWith: "refusing to load plugin /opt/app/plugins/libReports.so: folder",
                                   printed: refused.output)

        #expect(chmod(folder.path, 0o755) == 0)
        let loaded = try await runCommand([example.host, plugin])
        #expect(loaded.status == 0, "\(loaded.output)")
        #expect(lines(loaded).contains("loaded \(plugin): Reports"))
    }

    @Test func aPluginFileOthersMayWriteIsRefused() async throws {
        let example = try await builtExample()
        let (_, plugin) = try copiedPlugin(example)
        #expect(chmod(plugin, 0o666) == 0)
        let run = try await runCommand([example.host, plugin])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains(
            "refusing to load plugin \(plugin): file \(plugin) is writable by its group and every user (mode 0666), "
                + "so users other than this process's and root could replace the code: run chmod go-w \(plugin)"), "\(run.output)")
        #expect(!run.output.contains("Reports: started"))
    }

    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"))
    func aPluginOrAFolderOwnedByAnotherUserIsRefused() async throws {
        let example = try await builtExample()
        let (folder, plugin) = try copiedPlugin(example)
        #expect(chown(plugin, 4242, 0) == 0)
        let file = try await runCommand([example.host, plugin])
        #expect(file.status == 1, "\(file.output)")
        #expect(file.output.contains(
            "refusing to load plugin \(plugin): file \(plugin) is owned by uid 4242, neither this process's user (uid 0) nor root: "
                + "run chown 0 \(plugin)"), "\(file.output)")
        ArticleQuotes.expectQuoted(in: "PluginsAndSharedLibraries.md", startingWith: "refusing to load plugin /opt/app/plugins/libReports.so: file",
                                   printed: file.output)

        #expect(chown(plugin, 0, 0) == 0 && chown(folder.path, 4242, 0) == 0)
        let parent = try await runCommand([example.host, plugin])
        #expect(parent.status == 1, "\(parent.output)")
        #expect(parent.output.contains("folder \(folder.path) is owned by uid 4242"), "\(parent.output)")
    }

    @Test func aPluginThatIsNotARegularFileIsRefused() async throws {
        let example = try await builtExample()
        let folder = try scratchDirectory("plugin-trust")
        let fifo = folder.appendingPathComponent("libFifo.so").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // dlopen would wait on the FIFO for a writer, forever.
        let run = try await runCommand([example.host, fifo])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("refusing to load plugin \(fifo): \(fifo) is a FIFO, not a regular file: name the shared object itself"),
                "\(run.output)")
    }

    @Test func aRelativePathIsResolvedAgainstTheWorkingFolderNeverSearched() async throws {
        // The host's RUNPATH holds $ORIGIN, the folder of libReportsPlugin.so:
        // dlopen("libReportsPlugin.so") would find it there.
        let example = try await builtExample()
        let folder = try scratchDirectory("plugin-trust")
        let missing = try await runCommand([example.host, "libReportsPlugin.so"], in: folder)
        #expect(missing.status == 1, "\(missing.output)")
        #expect(missing.output.contains("cannot load plugin libReportsPlugin.so: \(folder.path)/libReportsPlugin.so: No such file or directory"),
                "\(missing.output)")
        #expect(!missing.output.contains("Reports: started"))

        // Another library of that name in the working folder is the one loaded.
        try await FileManager.default.copyItem(atPath: try builtFixture("DuplicatePlugin"),
                                         toPath: folder.appendingPathComponent("libReportsPlugin.so").path)
        let other = try await runCommand([example.host, "libReportsPlugin.so"], in: folder)
        #expect(other.status == 1, "\(other.output)")
        #expect(other.output.contains("plugin libReportsPlugin.so registers module 'Clock', which the program registers already"),
                "\(other.output)")
    }

    @Test func checkWithHostReportsTheSameTrustProblems() async throws {
        let example = try await builtExample()
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")
        let (folder, plugin) = try copiedPlugin(example)
        #expect(chmod(folder.path, 0o777) == 0 && chmod(plugin, 0o666) == 0)
        let check = try await runCommand([inspector.binary, "check", plugin, "--host", example.host])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.output.contains(
            "  - file \(plugin) is writable by its group and every user (mode 0666), "
                + "so users other than this process's and root could replace the code: run chmod go-w \(plugin)"), "\(check.output)")
        #expect(check.output.contains("  - folder \(folder.path) is writable by its group and every user (mode 0777)"), "\(check.output)")

        #expect(chmod(folder.path, 0o755) == 0 && chmod(plugin, 0o644) == 0)
        let fixed = try await runCommand([inspector.binary, "check", plugin, "--host", example.host])
        #expect(fixed.status == 0, "\(fixed.output)")
    }
}
