#!/usr/bin/env bash
# bench.sh [--smoke] [--instructions] [--write-docs] [N...]
#
# Measures, side by side in one run, for N modules (default 100 1000 10000):
#   discovery   this registry's discovery + validation + name-to-factory map,
#               against the raw C walk + map of the same section (the limit),
#               and the walk of every loaded image's notes it starts with,
#               resolving the N class names with _typeByName (the
#               NSClassFromString of class-name registries), and a JSON
#               manifest of the names decoded and resolved (a plist's
#               equivalent); first calls in fresh processes
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
# and prints one markdown table: medians, ratios to the baselines, and each
# target met or missed. The runner, `registry-bench table`, runs the programs
# and makes the table (Sources/Benchmarks/Sources/BenchmarkRunner). Then the
# drain job against its peers (scripts/drain-peers.sh): N long-running
# services started, all running, all drained, exit, with ModuleHost, with
# swift-service-lifecycle's ServiceGroup and with a task group by hand, at
# N = 10, 100 and 1,000 (100 with --smoke), in instructions, CPU and wall.
# And `context.serve(app)`'s request path against `app.run()`'s, in
# instructions a request (scripts/serve-bench.sh, a release build).
#
# --instructions: also counts instructions with callgrind (scripts/
#               instructions.sh): the whole-app pair and discovery, printed as
#               a second table. Counts do not depend on the machine's load.
# --smoke:      N = 100 only (unless N... are given), few repetitions (the
#               in-process measurements' medians over 3 processes: a
#               broadcast's time is bimodal between processes here), and
#               --instructions; then fails on a regression (scripts/
#               check-bench.sh): a ratio the Benchmarks article lists as met
#               off its target by more than 2x, or the whole app's or the
#               drain job's (host / group) instruction ratio at N = 100 more
#               than 10% over the figure the article records, or serve's
#               instructions a request more than 2% over app.run()'s (the
#               target itself). For CI.
# --write-docs: also writes the tables into the Benchmarks article
#               (Sources/SectionRegistry/SectionRegistry.docc/Benchmarks.md),
#               between its "bench.sh table" marker comments, and with
#               instructions at N = 100, the ratios --smoke compares with.
# The generated programs (scripts/generate-bench-package.sh) and the runner,
# built from the benchmarks' own package (Sources/Benchmarks), go to
# .build-bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
docs=$root/Sources/SectionRegistry/SectionRegistry.docc/Benchmarks.md
begin_marker='<!-- bench.sh table: begin (written by scripts/bench.sh --write-docs) -->'
end_marker='<!-- bench.sh table: end -->'

runs=5
startups=40
write_docs=false
instructions=false
counts=()
for argument in "$@"; do
    case $argument in
        --smoke) runs=3 startups=5 smoke=true instructions=true ;;
        --instructions) instructions=true ;;
        --write-docs) write_docs=true ;;
        -*) echo "usage: $0 [--smoke] [--instructions] [--write-docs] [N...]" >&2; exit 2 ;;
        *) counts+=("$argument") ;;
    esac
done
if ((${#counts[@]} == 0)); then
    if [[ ${smoke:-} == true ]]; then counts=(100); else counts=(100 1000 10000); fi
fi
if [[ $write_docs == true ]] && ! { grep -qxF "$begin_marker" "$docs" && grep -qxF "$end_marker" "$docs"; }; then
    echo "bench.sh: $docs lacks the marker lines; put these two lines where the table goes:"$'\n'"$begin_marker"$'\n'"$end_marker" >&2
    exit 1
fi

package=$root/.build-bench/package
echo "Generating and building programs with ${counts[*]} modules (release)..." >&2
scripts/generate-bench-package.sh "$package" "${counts[@]}"
swift build -c release --package-path "$package" 2>&1 | grep -E "warning:|error:" >&2 || true
swift build -c release --package-path "$package" >/dev/null
runner=(--package-path Sources/Benchmarks --scratch-path "$root/.build-bench/runner")
swift build -c release "${runner[@]}" 2>&1 | grep -E "warning:|error:" >&2 || true
swift build -c release "${runner[@]}" >/dev/null   # the runner and the drain peers
generated_bin=$(swift build -c release --package-path "$package" --show-bin-path)
bench_bin=$(swift build -c release "${runner[@]}" --show-bin-path)

echo "Measuring..." >&2
table=$("$bench_bin/registry-bench" table --generated "$generated_bin" --runs "$runs" --startups "$startups" "${counts[@]}")
echo "$table"
# The counts as `key.N value` lines, and the tables with them, for the checks.
figures=$(mktemp)
measured=$(mktemp)
drain_figures=$(mktemp)
trap 'rm -f "$figures" "$measured" "$drain_figures"' EXIT
if [[ $instructions == true ]]; then
    echo "Counting instructions (callgrind)..." >&2
    instruction_table=$(scripts/instructions.sh -m "$figures" "$generated_bin" "${counts[@]}")
    echo
    echo "$instruction_table"
    table+=$'\n\n'$instruction_table
fi

# serve's request path, in release as a server runs (its first build
# compiles swift-nio and Hummingbird: about 5 minutes on 2 cores); the smoke
# run counts fewer requests.
echo "Counting serve's request path (callgrind)..." >&2
if [[ ${smoke:-} == true ]]; then serve_options=(-r 5 1000); else serve_options=(-r 5 2000); fi
serve_table=$(scripts/serve-bench.sh -m "$figures" "${serve_options[@]}")
echo
echo "$serve_table"
table+=$'\n\n'$serve_table

if [[ ${smoke:-} == true ]]; then peer_counts=(100); else peer_counts=(10 100 1000); fi
echo "Measuring the drain job against its peers..." >&2
drain_table=$(scripts/drain-peers.sh -r "$([[ ${smoke:-} == true ]] && echo 10 || echo 30)" -m "$drain_figures" "$bench_bin" "${peer_counts[@]}")
echo
echo "$drain_table"
table+=$'\n\n'$drain_table
cat "$drain_figures" >>"$figures"

if [[ ${smoke:-} == true ]]; then
    { echo "$table"; cat "$figures"; } >"$measured"
    scripts/check-bench.sh "$docs" "$measured"
fi

if [[ $write_docs == true ]]; then
    block=$(mktemp)
    {
        echo "\`scripts/bench.sh$([[ $instructions == false ]] || echo " --instructions") ${counts[*]}\`, $(date -u +%Y-%m-%d):"
        echo
        echo "$table"
        echo
        # What `bench.sh --smoke` compares with (scripts/check-bench.sh).
        for key in app_ratio drain_ratio; do
            if ratio=$(sed -nE "s/^$key\\.100 //p" "$figures") && [[ -n $ratio ]]; then
                echo "<!-- instructions recorded: $key.100 = $ratio -->"
                echo
            fi
        done
    } >"$block"
    # Everything outside the markers stays; what is between them is replaced.
    awk -v begin="$begin_marker" -v end="$end_marker" -v block="$block" '
        $0 == begin { print; while ((getline line < block) > 0) print line; skipping = 1; next }
        $0 == end { skipping = 0 }
        !skipping { print }' "$docs" >"$docs.new"
    mv "$docs.new" "$docs"
    rm -f "$block"
    echo "bench.sh: the table is in $docs" >&2
fi
