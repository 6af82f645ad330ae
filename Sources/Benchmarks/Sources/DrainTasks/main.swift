// The drain job by hand: N child tasks, each serving until its gate opens;
// the gates opened in reverse order. The floor both libraries are above.
import DrainPeers

let count = serviceCount()
let arrivals = Arrivals(expected: count)
let gates = (0..<count).map { _ in Gate() }
await withDiscardingTaskGroup { tasks in
    for gate in gates {
        tasks.addTask {
            arrivals.arrive()
            await gate.wait()
        }
    }
    await arrivals.all()
    for gate in gates.reversed() { gate.open() }
}
