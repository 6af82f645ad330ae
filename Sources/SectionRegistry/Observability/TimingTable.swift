/// Where the time went: one row per module, one column per launch phase and
/// for event handling, as data and as a printable table.
public struct TimingTable: Sendable, CustomStringConvertible {
    /// Every hook the host ran, in the order it ran them.
    public let hooks: [HookOutcome]
    /// Event handling per module and event type, the table's `events`
    /// column (empty unless ``HostConfiguration/timesEventHandlers`` is on).
    package let events: [EventTiming]

    /// The total time of `module` in `phase`, or `nil` if it never ran it.
    public func duration(of module: String, in phase: LifecyclePhase) -> Duration? {
        let runs = hooks.filter { $0.module == module && $0.phase == phase }
        return runs.isEmpty ? nil : runs.map(\.duration).reduce(.zero, +)
    }

    /// A fixed-width table, modules in the order they first ran a hook.
    public var description: String {
        var modules: [String] = []
        for name in hooks.map(\.module) + events.map(\.module) where !modules.contains(name) {
            modules.append(name)
        }
        let phases = LifecyclePhase.allCases.filter { phase in hooks.contains { $0.phase == phase } }
        let header = ["module"] + phases.map(\.description) + (events.isEmpty ? [] : ["events"])
        let rows = modules.map { module in
            [module] + phases.map { phase in duration(of: module, in: phase).map(Self.milliseconds) ?? "-" }
                + (events.isEmpty ? [] : [eventSummary(of: module)])
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        return ([header] + rows).map { row in
            row.indices.map { column in
                column == 0 ? row[column].padding(to: widths[column]) : row[column].leftPadding(to: widths[column])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private func eventSummary(of module: String) -> String {
        let mine = events.filter { $0.module == module }
        guard !mine.isEmpty else { return "-" }
        return "\(mine.map(\.count).reduce(0, +)) in " + Self.milliseconds(mine.map(\.total).reduce(.zero, +))
    }

    private static func milliseconds(_ duration: Duration) -> String {
        duration.milliseconds + " ms"
    }
}

extension String {
    fileprivate func leftPadding(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }

    fileprivate func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
