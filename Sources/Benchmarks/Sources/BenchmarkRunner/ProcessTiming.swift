import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Running the benchmark programs: their output, or their whole-process time.
enum ProcessTiming {
    /// The standard output of `command` (path, then arguments), which must
    /// exit with status 0; its standard error passes through.
    static func output(of command: [String]) throws -> String {
        try requireExecutable(command[0])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw RunnerError("cannot run \(command.joined(separator: " ")): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw RunnerError("\(command.joined(separator: " ")) failed (status \(process.terminationStatus)); its error is above")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The time from spawning `program` (no arguments, this environment,
    /// inherited output) to its exit, in milliseconds.
    static func milliseconds(running program: String) throws -> Double {
        try times(running: [program]).wall
    }

    /// The wall time from spawning `command` (path, then arguments; this
    /// environment, inherited output) to its exit, and the CPU time it used
    /// (user and system, all its threads), in milliseconds. posix_spawn and
    /// wait4 directly: Foundation's Process adds a monitoring thread and
    /// run-loop turns that would be counted in the program's time.
    static func times(running command: [String]) throws -> (wall: Double, cpu: Double) {
        let program = command[0]
        try requireExecutable(program)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, nil, nil, argv, envp)
        guard spawned == 0 else {
            throw RunnerError("cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw RunnerError("waiting for \(program): \(String(cString: strerror(errno)))") }
        }
        let elapsed = start.duration(to: clock.now)
        guard status == 0 else { throw RunnerError("\(command.joined(separator: " ")) did not exit with status 0 (wait status \(status))") }
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
        let wall = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        return (wall, milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime))
    }

    private static func requireExecutable(_ program: String) throws(RunnerError) {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw RunnerError("no program \(program): scripts/bench.sh generates and builds the benchmark programs for the N it is given")
        }
    }

    /// The median whole-process time of `program` over `runs` runs, in milliseconds.
    static func medianMilliseconds(running program: String, runs: Int) throws -> Double {
        try (0..<runs).map { _ in try milliseconds(running: program) }.median
    }

    /// The median whole-process times of two programs over `runs` runs each,
    /// run alternately so that both see the same machine, in milliseconds.
    static func interleavedMedianMilliseconds(_ first: String, _ second: String, runs: Int) throws -> (Double, Double) {
        var firstTimes: [Double] = []
        var secondTimes: [Double] = []
        for _ in 0..<runs {
            firstTimes.append(try milliseconds(running: first))
            secondTimes.append(try milliseconds(running: second))
        }
        return (firstTimes.median, secondTimes.median)
    }
}
