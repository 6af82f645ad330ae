#!/usr/bin/env bash
# instructions.sh [-r RUNS] [-m FILE] [-k] BIN_DIR N...
#
# Instruction counts (valgrind --tool=callgrind) of the programs
# scripts/generate-bench-package.sh generates, built in BIN_DIR, for each N:
#   whole app   HostedAppN (discover, launch, stop N modules with a
#               ModuleHost, exit) against HandAppN (the same N modules in a
#               hand-written main), whole processes, RUNS runs each
#   discovery   `DiscoveryN instructions`: discovery's first call, one warm
#               discovery and one raw C walk + map of the same section, each
#               counted alone (--toggle-collect on the function; see
#               Sources/Benchmarks/Sources/RegistryBenchmarks/DiscoveryBenchmarks.swift)
# and prints a markdown table: medians of the runs, each run, the spread, the
# ratios and their targets (issue 28). Unlike times, the counts do not depend
# on the machine's load: on a shared machine this is the figure to compare.
#
# -r RUNS  callgrind runs of each whole-app program (default 3); the ratio
#          uses each program's median run. HostedApp100 is bimodal by about
#          1.4% (now and then two threads both miss the Swift runtime's
#          conformance cache and scan the records twice).
# -m FILE  also writes the figures as `key.N value` lines (app_ratio,
#          discovery_first, ...), for scripts/bench.sh's checks.
# -k       keeps callgrind's output files (their folder is printed), for
#          callgrind_annotate.
#
# Needs valgrind, objcopy and cc (scripts/callgrind.sh says why, and how it
# copes with valgrind 3.19 and Swift 6.3 binaries).
set -euo pipefail

runs=3
machine_file=
keep=false
usage="usage: $0 [-r RUNS] [-m FILE] [-k] BIN_DIR N..."
while getopts "r:m:k" option; do
    case $option in
        r) runs=$OPTARG ;;
        m) machine_file=$OPTARG ;;
        k) keep=true ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if (($# < 2)) || [[ ! -d $1 ]]; then echo "$usage" >&2; exit 2; fi
bin=$1
shift
counts=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/instructions.XXXXXX")
if [[ $keep == false ]]; then trap 'rm -rf "$work"' EXIT; fi
# shellcheck source=scripts/callgrind.sh
source "$(dirname "$0")/callgrind.sh"

# The functions `DiscoveryN instructions` calls once each (mangled: Swift's
# ModuleRegistry.linked() and readLoadedImages(), both in SectionRegistry's
# extension of ModuleRecords' ModuleRegistry; the C limit).
declare -A counted=(
    [discovery_first]='$s13ModuleRecords0A8RegistryV07SectionC0E6linkedACyAA0C5ErrorVYKFZ'
    [discovery_warm]='$s13ModuleRecords0A8RegistryV07SectionC0E16readLoadedImagesACyAA0C5ErrorVYKFZ'
    [raw_walk]=raw_walk_and_map
)
declare -A value
for n in "${counts[@]}"; do
    for program in HostedApp HandApp; do
        [[ -x $bin/$program$n ]] || { echo "instructions.sh: no $bin/$program$n" >&2; exit 1; }
        all=()
        for ((run = 1; run <= runs; run++)); do all+=("$(instructions "$bin/$program$n")"); done
        value[$program.$n]=$(median "${all[@]}")
        value[$program.runs.$n]=$(IFS=,; echo "${all[*]}" | sed 's/,/, /g')
        value[$program.spread.$n]=$(spread "${all[@]}")
    done
    value[app_ratio.$n]=$(awk -v h="${value[HostedApp.$n]}" -v m="${value[HandApp.$n]}" 'BEGIN { printf "%.2f", h / m }')
    value[beyond.$n]=$(awk -v h="${value[HostedApp.$n]}" -v m="${value[HandApp.$n]}" -v n="$n" 'BEGIN { printf "%.0f", (h - m) / n }')
    if [[ -x $bin/Discovery$n ]]; then
        for part in discovery_first discovery_warm raw_walk; do
            value[$part.$n]=$(CALLGRIND_OPTIONS="--toggle-collect=${counted[$part]}" instructions "$bin/Discovery$n" instructions)
        done
        value[discovery_ratio.$n]=$(awk -v d="${value[discovery_warm.$n]}" -v r="${value[raw_walk.$n]}" 'BEGIN { printf "%.2f", d / r }')
    fi
done

if [[ -n $machine_file ]]; then
    for key in "${!value[@]}"; do
        [[ $key == *runs* || $key == *spread* ]] || echo "$key ${value[$key]}"
    done | sort >"$machine_file"
fi

# A row's cell for N, with "met" or "missed" when the target applies there.
judged() {
    local shown=$1 bound=$2 limit=$3
    awk -v v="$shown" -v b="$bound" -v l="$limit" 'BEGIN { met = (b == "max") ? v + 0 <= l + 0 : v + 0 >= l + 0; printf "%s", met ? "met" : "missed" }'
}
app_target() { case $1 in 100) echo 1.10 ;; 1000) echo 1.25 ;; 10000) echo 2 ;; *) echo "" ;; esac; }

header="| instructions (callgrind) |"
rule="|---|"
grouped() { sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<<"$1"; }   # 10000 -> 10,000
for n in "${counts[@]}"; do header+=" N = $(grouped "$n") |"; rule+="---:|"; done
echo "$header"
echo "$rule"
row() {
    local label=$1 cell=$2
    local line="| $label |"
    for n in "${counts[@]}"; do line+=" $($cell "$n") |"; done
    echo "$line"
}
cell_hosted() { echo "$(short "${value[HostedApp.$1]}") (${value[HostedApp.runs.$1]})"; }
cell_hand() { echo "$(short "${value[HandApp.$1]}") (${value[HandApp.runs.$1]})"; }
cell_ratio() {
    local target
    target=$(app_target "$1")
    echo "${value[app_ratio.$1]}x${target:+, $(judged "${value[app_ratio.$1]}" max "$target")}"
}
cell_beyond() { echo "$(short "${value[beyond.$1]}")"; }
cell_spread() { echo "${value[HostedApp.spread.$1]}; ${value[HandApp.spread.$1]}"; }
row "**Whole app** (HostedAppN), median (each run)" cell_hosted
row "Hand-written \`main\` (HandAppN), median (each run)" cell_hand
row "&nbsp;&nbsp;ratio app / hand-written (target ≤ 1.10x at N = 100, ≤ 1.25x at 1,000, ≤ 2x at 10,000)" cell_ratio
row "&nbsp;&nbsp;instructions per module beyond the hand-written \`main\`" cell_beyond
row "&nbsp;&nbsp;spread of the runs, app; hand-written" cell_spread
if [[ -n ${value[discovery_first.${counts[0]}]:-} ]]; then
    cell_first() {
        local v=${value[discovery_first.$1]:-}
        [[ -n $v ]] || { echo "-"; return; }
        if (($1 == 100)); then echo "$(short "$v"), $(judged "$v" max 300000)"; else short "$v"; fi
    }
    cell_warm() { [[ -n ${value[discovery_warm.$1]:-} ]] && short "${value[discovery_warm.$1]}" || echo "-"; }
    cell_raw() { [[ -n ${value[raw_walk.$1]:-} ]] && short "${value[raw_walk.$1]}" || echo "-"; }
    cell_discovery_ratio() {
        local v=${value[discovery_ratio.$1]:-}
        [[ -n $v ]] && echo "${v}x, $(judged "$v" max 3)" || echo "-"
    }
    row "Discovery, first call in the process (target ≤ 300 k at N = 100)" cell_first
    row "Discovery + validation + map, warm" cell_warm
    row "Raw C walk + map of the same section" cell_raw
    row "&nbsp;&nbsp;ratio discovery, warm / raw C walk (target ≤ 3x)" cell_discovery_ratio
fi
echo
echo "Whole processes, $runs callgrind run$( ((runs == 1)) || echo s) of each; discovery counted inside the process (\`DiscoveryN instructions\`), one run."

if [[ $keep == true ]]; then echo "callgrind files: $work" >&2; fi
