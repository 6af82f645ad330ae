#!/usr/bin/env bash
# bench.sh [--smoke] [N...]
#
# Measures, side by side in one run, for N modules (default 100 1000 10000):
#   discovery   this registry's discovery + validation + name-to-factory map,
#               against the raw C walk + map of the same section (the limit),
#               and the walk of every loaded image's notes it starts with,
#               resolving the N class names with _typeByName (the seeds'
#               NSClassFromString), and a JSON manifest of the names decoded and
#               resolved (the seeds' plist); first calls in fresh processes
#   whole app   exec until N modules are running, stopped and the process has
#               exited, against the same modules in a hand-written main
#               (interleaved runs)
#   start-up    whole-process start-up with N records against the same app
#               with none, and against N constructors that register before main
#   launch      ModuleHost.launch of N trivial modules (no dependencies, a
#               chain, a wide tree) against a hand-written loop
#   dispatch    a broadcast to N modules against a hand-written loop and
#               Foundation's NotificationCenter; first-handler-wins at the last
#   size        bytes per record, and loaded bytes per module in the binary
# and prints one markdown table: medians, and ratios to the baselines.
#
# --smoke: N = 100 only, few repetitions: checks the benchmarks run (CI).
# The generated programs go to .build-bench/ (scripts/generate-bench-package.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

runs=5
startups=40
if [[ ${1:-} == --smoke ]]; then
    shift
    runs=1
    startups=5
    set -- "${@:-100}"
fi
counts=("${@:-100 1000 10000}")
read -r -a counts <<<"${counts[*]}"

package=$root/.build-bench/package
echo "Generating and building programs with ${counts[*]} modules (release)..." >&2
scripts/generate-bench-package.sh "$package" "${counts[@]}"
swift build -c release --package-path "$package" 2>&1 | grep -E "warning:|error:" >&2 || true
swift build -c release --package-path "$package" >/dev/null
swift build -c release --product registry-bench >/dev/null
generated_bin=$(swift build -c release --package-path "$package" --show-bin-path)
bench_bin=$(swift build -c release --show-bin-path)

echo "Measuring..." >&2
python3 - "$generated_bin" "$bench_bin/registry-bench" "$runs" "$startups" "${counts[@]}" <<'PYTHON'
import os, platform, statistics, subprocess, sys, time

generated, runner, runs, startups = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
counts = [int(n) for n in sys.argv[5:]]

def measure(command):
    """Runs a benchmark process and returns its `key value` lines."""
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {key: float(value) for key, value in (line.split() for line in output.splitlines())}

def median_of_runs(command):
    samples = [measure(command) for _ in range(runs)]
    return {key: statistics.median(sample[key] for sample in samples) for key in samples[0]}

def startup_ms(binary):
    times = []
    for _ in range(startups):
        start = time.perf_counter()
        subprocess.run([binary], check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)

def interleaved_ms(first, second):
    """Whole-process times of two programs, run alternately so that both see
    the same machine; medians in milliseconds."""
    times = ([], [])
    for _ in range(startups):
        for binary, samples in zip((first, second), times):
            start = time.perf_counter()
            subprocess.run([binary], check=True)
            samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])

def alloc_bytes(binary, section=None):
    """Bytes of the loaded (SHF_ALLOC) sections, or of one section."""
    total = 0
    for line in subprocess.run(["readelf", "-S", "-W", binary], check=True, capture_output=True, text=True).stdout.splitlines():
        if "]" not in line:
            continue
        fields = line.split("]", 1)[1].split()
        if len(fields) < 7 or fields[1] in ("NULL", "Type"):
            continue
        name, size, flags = fields[0], int(fields[4], 16), fields[6]
        if section is None and "A" in flags and fields[1] != "NOBITS":
            total += size
        if name == section:
            return size
    return total

results = {n: {} for n in counts}
for n in counts:
    binary = f"{generated}/Discovery{n}"
    for mode in ["registry", "typeByName", "manifest"]:
        results[n].update(median_of_runs([binary, mode]))
    for key, program in [("startup_empty", "StartupEmpty"), ("startup_registry", f"Startup{n}"),
                         ("startup_bare", f"BareStartup{n}"), ("startup_plain", "StartupPlain"),
                         ("startup_constructors", f"ConstructorStartup{n}")]:
        results[n][key] = startup_ms(f"{generated}/{program}")
    results[n]["app_hosted"], results[n]["app_hand"] = interleaved_ms(f"{generated}/HostedApp{n}", f"{generated}/HandApp{n}")
    results[n]["record_bytes"] = (alloc_bytes(f"{generated}/Startup{n}", "app_modules") - 128) / n
    results[n]["module_bytes"] = (alloc_bytes(f"{generated}/Startup{n}") - alloc_bytes(f"{generated}/StartupEmpty")) / n
host = median_of_runs([runner] + [str(n) for n in counts])
for key, value in host.items():
    name, n = key.rsplit(".", 1)
    results[int(n)][name] = value

us = lambda key: lambda n: f"{results[n][key] / 1000:,.1f} µs"
ms = lambda key: lambda n: f"{results[n][key]:,.2f} ms"
ratio = lambda a, b: lambda n: f"{results[n][a] / results[n][b]:,.1f}x"

def growth(n):
    """How discovery grew from the previous N."""
    i = counts.index(n)
    if i == 0:
        return "-"
    previous = counts[i - 1]
    return f"{results[n]['discovery'] / results[previous]['discovery']:,.1f}x for {n // previous}x"

rows = [
    ("**Whole app**: exec, discover, launch N modules, stop them, exit", ms("app_hosted")),
    ("The same N modules started and stopped by a hand-written `main`", ms("app_hand")),
    ("&nbsp;&nbsp;ratio SectionRegistry app / hand-written (target ≤ 1.1x at 100 and 1,000)", ratio("app_hosted", "app_hand")),
    ("Discovery + validation + map (warm)", us("discovery")),
    ("Raw C walk + map of the same section (the limit)", us("raw_c_walk")),
    ("&nbsp;&nbsp;ratio discovery / raw C walk (target ≤ 3x)", ratio("discovery", "raw_c_walk")),
    ("&nbsp;&nbsp;growth of discovery from the previous N (target ≤ 12x for 10x)", growth),
    ("Walk of every loaded image's notes (`dl_iterate_phdr`), part of discovery", lambda n: f"{results[n]['image_walk']:,.0f} ns"),
    ("&nbsp;&nbsp;images in the process; walk time per image", lambda n: f"{results[n]['images_walked']:.0f}; {results[n]['image_walk'] / results[n]['images_walked']:,.0f} ns"),
    ("Discovery, first call in the process", us("discovery_first")),
    ("`_typeByName` of every name, first pass", us("type_by_name_first")),
    ("&nbsp;&nbsp;ratio `_typeByName` / discovery (target ≥ 100x at 1,000)", ratio("type_by_name_first", "discovery")),
    ("&nbsp;&nbsp;ratio `_typeByName` / discovery's first call", ratio("type_by_name_first", "discovery_first")),
    ("JSON manifest decoded + names resolved, first pass", us("manifest_first")),
    ("&nbsp;&nbsp;ratio manifest / discovery", ratio("manifest_first", "discovery")),
    ("Start-up, app with SectionRegistry and no module", ms("startup_empty")),
    ("Start-up, app with N modules (Swift classes, factories, records)", ms("startup_registry")),
    ("&nbsp;&nbsp;ratio N modules / none", ratio("startup_registry", "startup_empty")),
    ("Start-up, the same app without the records", ms("startup_bare")),
    ("&nbsp;&nbsp;ratio with records / without (target: noise)", ratio("startup_registry", "startup_bare")),
    ("Start-up, plain app with nothing linked", ms("startup_plain")),
    ("Start-up, plain app with N C constructors before `main`", ms("startup_constructors")),
    ("&nbsp;&nbsp;ratio constructors / plain", ratio("startup_constructors", "startup_plain")),
    ("Launch (setUp, start, ready), no dependencies", us("launch")),
    ("Launch, dependencies in a chain", us("launch_chain")),
    ("Launch, wide tree (all after one)", us("launch_wide")),
    ("Hand-written launch loop", us("launch_hand_loop")),
    ("&nbsp;&nbsp;ratio launch / hand-written loop", ratio("launch", "launch_hand_loop")),
    ("Broadcast to N modules", us("broadcast")),
    ("Hand-written loop over N modules", us("broadcast_hand_loop")),
    ("&nbsp;&nbsp;ratio broadcast / hand-written loop (target ≤ 1.5x)", ratio("broadcast", "broadcast_hand_loop")),
    ("NotificationCenter post to N observers", us("notification_center")),
    ("&nbsp;&nbsp;ratio NotificationCenter / broadcast (target ≥ 10x)", ratio("notification_center", "broadcast")),
    ("First handler wins, at the last module", us("first_handler_last")),
    ("Bytes per module record (app_modules)", lambda n: f"{results[n]['record_bytes']:,.0f}"),
    ("Loaded bytes per module in the binary (record, Swift type, factory)", lambda n: f"{results[n]['module_bytes']:,.0f}"),
]

print("| measurement | " + " | ".join(f"N = {n:,}" for n in counts) + " |")
print("|---|" + "---:|" * len(counts))
for label, cell in rows:
    print(f"| {label} | " + " | ".join(cell(n) for n in counts) + " |")
cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
print()
print(f"Medians: discovery over {runs} processes (first calls) and 11 in-process samples (warm); "
      f"start-up over {startups} runs. {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}.")
PYTHON
