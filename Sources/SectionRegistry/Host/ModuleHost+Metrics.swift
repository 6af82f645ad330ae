#if Metrics
extension ModuleHost {
    /// Records each hook of `phase` that a module writes: its duration if
    /// it ran, and its failure if it did not complete (a stop hook skipped
    /// by a cut-short shutdown too).
    func recordMetrics(of phase: PhaseRun, _ records: PhaseRecords) {
        for position in records.indices {
            let record = records[position], module = phase.modules[position]
            guard module.reportsHook(of: phase.phase, endingAs: record.end) else { continue }
            shared.metrics.hook(module.name, phase.phase, outcome: record.end.name, nanoseconds: record.ended ? record.elapsed : nil)
        }
    }
}
#endif
