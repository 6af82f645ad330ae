#!/usr/bin/env bash
# check-bench.sh PAGE MEASURED
#
# The regression check of `scripts/bench.sh --smoke` (issue 28). PAGE is the
# Benchmarks article, MEASURED the tables bench.sh just printed. Fails (exit
# 1, one line per problem) when
#  * a row that PAGE's tables mark "met" at some N, measured again at that N,
#    is off its target by more than 2x (above twice a "≤" limit, below half a
#    "≥" one): rows are matched by label, the target is read from the label;
#  * the whole app's instruction ratio at N = 100, or the drain job's (host
#    / ServiceGroup), is more than 10% above the figure PAGE records in its
#    machine-readable lines
#        <!-- instructions recorded: app_ratio.100 = 1.69 -->
#        <!-- instructions recorded: drain_ratio.100 = 1.27 -->
#  * `context.serve(app)` costs more than 2% more instructions a request
#    than `app.run()` (scripts/serve-bench.sh's serve_ratio): the target
#    itself, since the figure is about 1.01x and repeats to within 0.1%.
# Ratios of programs run side by side, and instruction counts: whatever the
# machine's load, a 2x or 10% change is the code's, not noise.
set -euo pipefail

if (($# != 2)); then echo "usage: $0 PAGE MEASURED" >&2; exit 2; fi
page=$1
measured=$2
# shellcheck source=scripts/recorded-ratios.sh
source "$(dirname "$0")/recorded-ratios.sh"

# Every targeted cell of markdown tables as "label<TAB>N<TAB>cell" lines: the
# header's "N = 1,000" columns give N.
cells() {
    awk -F'|' '
        function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
        /^\|/ && $0 ~ /\| N = / {
            delete column
            for (i = 3; i < NF; i++) { h = trim($i); sub(/^N = /, "", h); gsub(/,/, "", h); column[i] = h }
            next
        }
        /^\|---/ { next }
        /^\|/ && $2 ~ /target (≤|≥)/ { for (i = 3; i < NF; i++) if (i in column) print trim($2) "\t" column[i] "\t" trim($i) }
        !/^\|/ { delete column }' "$1"
}

# Numbers as the tables show them ("2,552.1 µs", "1.08 M", "0.4x, met") are
# read in plain units, "k" and "M" multiplied out.
status=0
while IFS=$'\t' read -r label n page_cell; do
    [[ $page_cell == *", met" ]] || continue
    measured_cell=$(cells "$measured" | awk -F'\t' -v l="$label" -v n="$n" '$1 == l && $2 == n { print $3; exit }')
    [[ -n $measured_cell ]] || continue   # not measured in this run (another N)
    verdict=$(awk -v label="$label" -v cell="$measured_cell" '
        function number(text,   v) {
            gsub(/,/, "", text)
            if (!match(text, /[0-9]+(\.[0-9]+)?( [kM])?/)) return ""
            v = substr(text, RSTART, RLENGTH)
            if (v ~ / k$/) return v * 1e3
            if (v ~ / M$/) return v * 1e6
            return v + 0
        }
        BEGIN {
            match(label, /target (≤|≥) [0-9.,]+( [kM])?/)
            target = substr(label, RSTART, RLENGTH)
            limit = number(target); value = number(cell)
            if (target ~ /≤/) bad = value > 2 * limit; else bad = value < limit / 2
            if (bad) printf "%s, more than 2x off the target", cell
        }')
    if [[ -n $verdict ]]; then
        echo "bench.sh: REGRESSION at N = $n: ${label//&nbsp;/}: $verdict (Benchmarks.md lists it as met: $page_cell)" >&2
        status=1
    fi
done < <(cells <(awk '/bench.sh table: begin/,/bench.sh table: end/' "$page"))

# The instruction ratios at N = 100 the page records: the whole app against
# a hand-written main, the drain job's host against a ServiceGroup.
for key in app_ratio drain_ratio; do
    case $key in
        app_ratio) what="the whole app's instruction ratio at N = 100 (app / hand-written main)" ;;
        drain_ratio) what="the drain job's instruction ratio at N = 100 (host / ServiceGroup)" ;;
    esac
    recorded=$(recorded_ratio "$page" "$key.100")
    now=$(sed -nE "s/^$key\\.100 ([0-9.]+)\$/\\1/p" "$measured")
    [[ -n $now ]] || continue
    if [[ -z $recorded ]]; then
        echo "bench.sh: $page records no $key (a line <!-- instructions recorded: $key.100 = R -->)" >&2
        status=1
    elif exceeds "$now" "$recorded" 10; then
        echo "bench.sh: REGRESSION: $what is ${now}x, more than 10% over the ${recorded}x Benchmarks.md records" >&2
        status=1
    else
        echo "bench.sh: $what: ${now}x (recorded ${recorded}x; fails above +10%)" >&2
    fi
done

# What serve adds to a request, against its target.
if serve=$(sed -nE 's/^serve_ratio ([0-9.]+)$/\1/p' "$measured") && [[ -n $serve ]]; then
    if awk -v now="$serve" 'BEGIN { exit !(now > 1.02) }'; then
        echo "bench.sh: REGRESSION: context.serve(app) costs ${serve}x the instructions of app.run() a request, above the target 1.02x (scripts/serve-bench.sh)" >&2
        status=1
    else
        echo "bench.sh: context.serve(app) / app.run(), instructions a request: ${serve}x (fails above 1.02x)" >&2
    fi
fi
exit $status
