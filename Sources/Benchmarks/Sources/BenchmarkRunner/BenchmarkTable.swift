/// The markdown table of a benchmark run: one row per measurement or ratio,
/// one column per N, each targeted cell marked "met" or "missed".
struct BenchmarkTable {
    /// One line of the table.
    private struct Row {
        let label: String
        let cell: (Int) -> String
    }

    let results: BenchmarkResults

    var markdown: String {
        let counts = results.moduleCounts
        var lines = [
            "| measurement | " + counts.map { "N = \(NumberText.grouped(Double($0), decimals: 0))" }.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---:|", count: counts.count),
        ]
        for row in rows {
            lines.append("| \(row.label) | " + counts.map(row.cell).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("Medians: discovery over \(results.options.runs) process\(results.options.runs == 1 ? "" : "es") (first calls) and 11 in-process samples (warm); "
            + "start-up and whole app over \(results.options.startups) runs. \(MachineDescription.current).")
        return lines.joined(separator: "\n")
    }

    private var rows: [Row] {
        [
            milliseconds("**Whole app**: exec, discover, launch N modules, stop them, exit", "app_hosted"),
            milliseconds("The same N modules started and stopped by a hand-written `main`", "app_hand"),
            ratio("SectionRegistry app / hand-written", "app_hosted", "app_hand", Target(.atMost, 1.1, at: [100, 1_000])),
            microseconds("Discovery + validation + map (warm)", "discovery"),
            microseconds("Raw C walk + map of the same section (the limit)", "raw_c_walk"),
            ratio("discovery / raw C walk", "discovery", "raw_c_walk", Target(.atMost, 3)),
            Row(label: "&nbsp;&nbsp;growth of discovery from the previous N (target ≤ 12x for 10x)") { n in
                guard let previous = results.previous(n) else { return "-" }
                let growth = results["discovery", n] / results["discovery", previous]
                return "\(NumberText.grouped(growth, decimals: 1))x for \(n / previous)x"
            },
            Row(label: "Walk of every loaded image's notes (`dl_iterate_phdr`), part of discovery") { n in
                "\(NumberText.grouped(results["image_walk", n], decimals: 0)) ns"
            },
            Row(label: "&nbsp;&nbsp;images in the process; walk time per image") { n in
                let images = results["images_walked", n]
                return "\(NumberText.grouped(images, decimals: 0)); \(NumberText.grouped(results["image_walk", n] / images, decimals: 0)) ns"
            },
            microseconds("Discovery, first call in the process", "discovery_first", Target(.atMost, 100, unit: " µs", at: [100])),
            microseconds("`_typeByName` of every name, first pass", "type_by_name_first"),
            ratio("`_typeByName` / discovery", "type_by_name_first", "discovery", Target(.atLeast, 300, at: [1_000])),
            ratio("`_typeByName` / discovery's first call", "type_by_name_first", "discovery_first"),
            microseconds("JSON manifest decoded + names resolved, first pass", "manifest_first"),
            ratio("manifest / discovery", "manifest_first", "discovery"),
            milliseconds("Start-up, app with SectionRegistry and no module", "startup_empty"),
            milliseconds("Start-up, app with N modules (Swift classes, factories, records)", "startup_registry"),
            ratio("N modules / none", "startup_registry", "startup_empty"),
            milliseconds("Start-up, the same app without the records", "startup_bare"),
            ratio("with records / without (target: noise)", "startup_registry", "startup_bare"),
            milliseconds("Start-up, plain app with nothing linked", "startup_plain"),
            milliseconds("Start-up, plain app with N C constructors before `main`", "startup_constructors"),
            ratio("constructors / plain", "startup_constructors", "startup_plain"),
            microseconds("Launch (setUp, start, ready), no dependencies", "launch"),
            microseconds("Launch, dependencies in a chain", "launch_chain"),
            microseconds("Launch, wide tree (all after one)", "launch_wide"),
            microseconds("Hand-written launch loop", "launch_hand_loop"),
            ratio("launch / hand-written loop", "launch", "launch_hand_loop", Target(.atMost, 10)),
            microseconds("Broadcast to N modules", "broadcast"),
            microseconds("Hand-written loop over N modules", "broadcast_hand_loop"),
            ratio("broadcast / hand-written loop", "broadcast", "broadcast_hand_loop", Target(.atMost, 2)),
            microseconds("NotificationCenter post to N observers", "notification_center"),
            ratio("NotificationCenter / broadcast", "notification_center", "broadcast", Target(.atLeast, 4)),
            microseconds("First handler wins, at the last module", "first_handler_last"),
            ratio("first handler at the last module / hand-written loop", "first_handler_last", "broadcast_hand_loop", Target(.atMost, 2.5)),
            microseconds("Shutdown: terminate() of N modules, each with a handler and a service", "terminate"),
            row("&nbsp;&nbsp;per module (linear: the same at every N)", nil, unit: " µs") { n in results["terminate", n] / 1_000 / Double(n) },
            ratio("per module, 2,500 modules / 250 (linear: about 1x)", "terminate_per_module_2500", "terminate_per_module_250", Target(.atMost, 2)),
            Row(label: "Bytes per module record (app_modules)") { n in NumberText.grouped(results["record_bytes", n], decimals: 0) },
            Row(label: "Loaded bytes per module in the binary (record, Swift type, factory)") { n in
                NumberText.grouped(results["module_bytes", n], decimals: 0)
            },
        ]
    }

    /// A whole-process time, measured in milliseconds.
    private func milliseconds(_ label: String, _ key: String) -> Row {
        Row(label: label) { n in "\(NumberText.grouped(results[key, n], decimals: 2)) ms" }
    }

    /// An in-process time, measured in nanoseconds, shown in microseconds.
    private func microseconds(_ label: String, _ key: String, _ target: Target? = nil) -> Row {
        row(label, target, unit: " µs") { n in results[key, n] / 1_000 }
    }

    /// `numerator / denominator`, as an indented "ratio" row.
    private func ratio(_ label: String, _ numerator: String, _ denominator: String, _ target: Target? = nil) -> Row {
        row("&nbsp;&nbsp;ratio \(label)", target, unit: "x") { n in results[numerator, n] / results[denominator, n] }
    }

    /// A row of values with one decimal, the target in its label and, where
    /// it applies, "met" or "missed" after the value.
    private func row(_ label: String, _ target: Target?, unit: String, value: @escaping (Int) -> Double) -> Row {
        Row(label: target.map { "\(label) (\($0.label))" } ?? label) { n in
            // Judged on the value as shown: a "2.0x" is never "missed" against 2x.
            let shown = (value(n) * 10).rounded() / 10
            let text = NumberText.grouped(shown, decimals: 1) + unit
            guard let target, target.applies(to: n) else { return text }
            return "\(text), \(target.isMet(by: shown) ? "met" : "missed")"
        }
    }
}
