import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The host's variables in a privileged process: a copy of the example app
/// that is set-group-ID to another group runs with `AT_SECURE`, where
/// glibc's `secure_getenv` returns nothing, as it would for a set-user-ID
/// program or one with file capabilities.
extension ExampleProcessTests {
    /// The variables a user could set to change the host from outside.
    static func hostVariables(trace: String) -> [String] {
        ["SECTION_REGISTRY_DISABLE=Search", "SECTION_REGISTRY_TRACE=\(trace)", "SECTION_REGISTRY_LOG_LEVEL=debug"]
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file to another group needs root"))
    func aPrivilegedProcessIgnoresTheHostsVariables() async throws {
        let folder = try scratchDirectory("secure-environment")
        let copy = folder.appendingPathComponent("registry-example").path
        try await FileManager.default.copyItem(atPath: try example(), toPath: copy)

        // The same copy, unprivileged: the variables apply.
        let trace = folder.appendingPathComponent("plain.json").path
        let plain = try await runCommand(Self.hostVariables(trace: trace) + [copy])
        #expect(plain.status == 0, "\(plain.output)")
        #expect(!plain.output.contains("Search: indexed"), "\(plain.output)")
        #expect(plain.output.contains("SectionRegistry: launching"), "debug messages are shown")
        #expect(FileManager.default.fileExists(atPath: trace))

        // Set-group-ID to nogroup (chown clears the bit, so chmod after it).
        #expect(chown(copy, 0, 65534) == 0 && chmod(copy, 0o2755) == 0)
        let secureTrace = folder.appendingPathComponent("secure.json").path
        let secure = try await runCommand(Self.hostVariables(trace: secureTrace) + [copy])
        #expect(secure.status == 0, "\(secure.output)")
        #expect(secure.output.contains("Search: indexed"), "SECTION_REGISTRY_DISABLE is ignored: \(secure.output)")
        #expect(!secure.output.contains("SectionRegistry: launching"), "SECTION_REGISTRY_LOG_LEVEL is ignored")
        #expect(!FileManager.default.fileExists(atPath: secureTrace), "SECTION_REGISTRY_TRACE is ignored")
    }
}
