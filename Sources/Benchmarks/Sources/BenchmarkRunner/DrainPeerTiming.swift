/// The drain peers' whole-process times (`registry-bench peer`): the same
/// job with the host, a ServiceGroup and a task group by hand, run in
/// turn so that all three see the same machine.
enum DrainPeerTiming {
    /// The peers, as their products are named and the figures keyed.
    static let programs = ["tasks", "group", "host"]

    /// For each N, the median wall and CPU times over `runs` interleaved
    /// runs of each peer, as `drain_wall.PEER.N ms` and `drain_cpu.PEER.N ms`
    /// lines.
    static func measure(binaries: String, runs: Int, counts: [Int]) throws -> [String] {
        var lines: [String] = []
        for count in counts {
            var wall: [String: [Double]] = [:]
            var cpu: [String: [Double]] = [:]
            for _ in 0..<runs {
                for program in programs {
                    let times = try ProcessTiming.times(running: ["\(binaries)/drain-\(program)", "\(count)"])
                    wall[program, default: []].append(times.wall)
                    cpu[program, default: []].append(times.cpu)
                }
            }
            for program in programs {
                lines.append("drain_wall.\(program).\(count) \(wall[program]!.median)")
                lines.append("drain_cpu.\(program).\(count) \(cpu[program]!.median)")
            }
        }
        return lines
    }
}
