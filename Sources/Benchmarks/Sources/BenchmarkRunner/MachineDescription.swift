import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine the table was measured on, as its last line names it:
/// "2 cores, AMD EPYC ..., Linux 6.18...".
enum MachineDescription {
    static var current: String {
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(processor), \(system)"
    }

    /// The model name of /proc/cpuinfo.
    private static var processor: String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
            ?? "unknown processor"
    }

    /// The kernel's name and release, as `uname -sr` prints them.
    private static var system: String {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(names.sysname)) \(text(names.release))"
    }
}
