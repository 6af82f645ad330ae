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
# Two workarounds for valgrind 3.19 with Swift 6.3 binaries, neither of which
# changes the programs' code:
#  * valgrind's DWARF reader gives up on the toolchain's DWARF 5, so each
#    program runs from a copy made with `objcopy --strip-debug` (same code,
#    same symbol table);
#  * valgrind's rt_sigsuspend wrapper writes into the mask argument, which
#    libdispatch keeps read-only: valgrind crashes once the async main thread
#    parks in dispatch_main. An LD_PRELOAD shim, compiled here, copies the
#    mask to the stack first (a few instructions, in both programs alike).
# Needs valgrind, objcopy and cc. Callgrind does not count the kernel (exec,
# page faults): whole-process times and counts differ by that.
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
for tool in valgrind objcopy cc; do
    command -v "$tool" >/dev/null || { echo "instructions.sh: needs $tool" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/instructions.XXXXXX")
if [[ $keep == false ]]; then trap 'rm -rf "$work"' EXIT; fi
cat >"$work/shim.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
/* valgrind's wrapper writes into *mask, which libdispatch keeps read-only. */
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
C
cc -O2 -shared -fPIC -o "$work/shim.so" "$work/shim.c"

# The instructions callgrind collected in one run of the stripped copy of
# $1 (arguments after it are the program's); CALLGRIND_OPTIONS adds options.
instructions() {
    local program=$1 log
    shift
    local copy=$work/$(basename "$program")
    [[ -x $copy ]] || objcopy --strip-debug "$program" "$copy"
    log=$(LD_PRELOAD="$work/shim.so" LD_LIBRARY_PATH="$(dirname "$program")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        valgrind --tool=callgrind ${CALLGRIND_OPTIONS:-} --callgrind-out-file="$work/$(basename "$program").%p.callgrind" \
        "$copy" "$@" 2>&1 >/dev/null) || {
        echo "instructions.sh: $program $* failed under callgrind:" >&2
        grep -v '^###' <<<"$log" | tail -20 >&2
        return 1
    }
    grep -E '^==[0-9]+== Collected : [0-9]+' <<<"$log" | awk '{ print $NF }'
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "%.2f%%", (max - min) * 100 / min }'; }
# 13071234 -> "13.07 M", 12700 -> "12.7 k"
short() { awk -v v="$1" 'BEGIN { if (v >= 1e6) printf "%.2f M", v / 1e6; else if (v >= 1e3) printf "%.1f k", v / 1e3; else printf "%d", v }'; }

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
