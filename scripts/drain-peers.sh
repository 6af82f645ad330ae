#!/usr/bin/env bash
# drain-peers.sh [-r RUNS] [-m FILE] BIN_DIR N...
#
# The drain job, three ways, side by side in one run (issue 38): start N
# long-running services, wait until every one runs, shut them all down
# gracefully (each `run` returns when asked), exit.
#   drain-tasks  a task group by hand: the floor
#   drain-group  swift-service-lifecycle's ServiceGroup, each service named
#   drain-host   ModuleHost: N modules declared in Swift, one level, each
#                `run` in context.withDrainHandler
# Every `run` waits on the same gate type (Sources/Benchmarks/Sources/
# DrainPeers), so the table measures the library around it. Built in
# BIN_DIR (the benchmark package's release folder). Prints a markdown
# table: instructions (callgrind, median of 3), then CPU and wall times
# (medians of RUNS interleaved runs, default 30, `registry-bench peer`),
# each with the host / group ratio against its target (no more than the
# group: 1.00x).
#
# -m FILE  also writes the figures as `key.N value` lines (drain_ratio, the
#          instruction ratio host / group), for scripts/bench.sh's checks.
set -euo pipefail

runs=30
machine_file=
usage="usage: $0 [-r RUNS] [-m FILE] BIN_DIR N..."
while getopts "r:m:" option; do
    case $option in
        r) runs=$OPTARG ;;
        m) machine_file=$OPTARG ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if (($# < 2)) || [[ ! -d $1 ]]; then echo "$usage" >&2; exit 2; fi
bin=$1
shift
counts=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/drain-peers.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=scripts/callgrind.sh
source "$(dirname "$0")/callgrind.sh"

peers=(tasks group host)
declare -A value
for n in "${counts[@]}"; do
    for peer in "${peers[@]}"; do
        all=()
        for _ in 1 2 3; do all+=("$(instructions "$bin/drain-$peer" "$n")"); done
        value[instructions.$peer.$n]=$(median "${all[@]}")
    done
done
while read -r key measured; do value[$key]=$measured; done < <("$bin/registry-bench" peer --bin "$bin" --runs "$runs" "${counts[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for n in "${counts[@]}"; do
    value[drain_ratio.$n]=$(ratio "${value[instructions.host.$n]}" "${value[instructions.group.$n]}")
done
if [[ -n $machine_file ]]; then
    for n in "${counts[@]}"; do echo "drain_ratio.$n ${value[drain_ratio.$n]}"; done >"$machine_file"
fi

grouped() { sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<<"$1"; }   # 1000 -> 1,000
header="| the drain job |"
rule="|---|"
for n in "${counts[@]}"; do header+=" N = $(grouped "$n") |"; rule+="---:|"; done
echo "$header"
echo "$rule"
row() {
    local label=$1 cell=$2 line
    line="| $label |"
    for n in "${counts[@]}"; do line+=" $($cell "$n") |"; done
    echo "$line"
}
milliseconds() { awk -v v="$1" 'BEGIN { printf "%.2f ms", v }'; }
judged() { awk -v r="$1" 'BEGIN { printf "%sx, %s", r, (r + 0 <= 1.00) ? "met" : "missed" }'; }
for measure in instructions cpu wall; do
    case $measure in
        instructions) unit="instructions"; key=instructions; shown=short ;;
        cpu) unit="CPU (user + system)"; key=drain_cpu; shown=milliseconds ;;
        wall) unit="wall"; key=drain_wall; shown=milliseconds ;;
    esac
    for peer in "${peers[@]}"; do
        case $peer in
            tasks) name="task group by hand" ;;
            group) name="ServiceGroup, named services" ;;
            host) name="ModuleHost" ;;
        esac
        eval "cell_$peer() { $shown \"\${value[$key.$peer.\$1]}\"; }"
        row "$name, $unit" "cell_$peer"
    done
    eval "cell_ratio() { judged \"\$(ratio \"\${value[$key.host.\$1]}\" \"\${value[$key.group.\$1]}\")\"; }"
    row "&nbsp;&nbsp;host / group, $unit (target ≤ 1.00x)" cell_ratio
done
echo
echo "Instructions: callgrind, median of 3 runs of each program. CPU and wall: medians of $runs runs of each, in turn."
