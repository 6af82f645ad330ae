#!/usr/bin/env bash
# toolbox-test.sh [--runs N]
#
# The command-line example (Sources/Example/Toolbox: swift-argument-parser,
# four feature modules, SectionRegistry's ArgumentParser trait and
# `ModuleHost.main(command:)`), built in release and run as a user runs it,
# after its features' own tests (`swift test`, in debug: (t)):
#   (a) `toolbox --help` lists the linked commands (env, greet, translate,
#       sum), exit 0; `toolbox help greet` is greet's own help, exit 0;
#   (b) an unknown command: ArgumentParser's usage error, exit 64;
#   (c) SECTION_REGISTRY_DISABLE=Sum: `sum` is gone from the help, and
#       `toolbox sum 1 2` is an unknown command (exit 64);
#   (s) a command that uses a module's service: `translate hello --to fr`
#       prints "bonjour"; a word the service lacks is a usage error (64);
#   (d) SIGINT during a slow command (`sum --delay 60000`): exit 130, nothing
#       written; (e) SIGTERM: exit 143, nothing written;
#   (f) N runs (default 1000) of `toolbox greet --name Ada`: each exits 0,
#       prints "Hello, Ada!" and writes nothing to standard error;
#   (g) the start-up cost in instructions (callgrind, median of 3 runs) of
#       `toolbox greet --name Ada` against the same tool written with
#       ArgumentParser alone (`toolbox-plain`), printed as a table; fails
#       when the ratio is more than 5% over the one the Benchmarks article
#       records (its line `<!-- instructions recorded: toolbox_ratio = R -->`):
#       the counts of one binary repeat within 1%;
#   (w) the same tool without the trait's API (toolbox-by-hand, the glue
#       written by hand, as CommandLineTools.md shows it) runs its `hello`,
#       which uses its module's service.
# Any failed check fails the script (exit 1) after every check has run.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000
if [[ ${1:-} == --runs ]]; then runs=$2; fi
package=Sources/Example/Toolbox
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=()
pass() { echo "toolbox-test: PASS $1"; }
fail() { echo "toolbox-test: FAIL $1" >&2; failures+=("$1"); }

echo "== swift build -c release (the toolbox example)"
swift build --package-path "$package" -c release 2>&1 | tee "$work/build.log"
if grep -h "warning:" "$work/build.log"; then fail "the example builds with warnings (above)"; fi
bin=$(swift build --package-path "$package" -c release --show-bin-path)
toolbox=$bin/toolbox

echo "== swift test (the features' own tests, with SectionRegistryTesting)"
set +e
swift test --package-path "$package" 2>&1 | tee "$work/test.log"
status=${PIPESTATUS[0]}
set -e
if [[ $status == 0 ]] && ! grep -h "warning:" "$work/test.log"; then pass "(t) swift test: the features' tests pass, no warnings"
else fail "(t) swift test: exit $status, or warnings (above)"; fi

# Runs the toolbox with the given environment assignments and arguments;
# sets $status, and $out and $err (what it wrote).
run() {
    set +e
    env "$@" >"$work/out" 2>"$work/err"
    status=$?
    set -e
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}

run "$toolbox" --help
if [[ $status == 0 && $out == *"env "*"greet "*"translate "*"sum "* && -z $err ]]; then pass "(a) --help lists env, greet, translate, sum, exit 0"
else fail "(a) --help: exit $status, output: $out $err"; fi

run "$toolbox" help greet
if [[ $status == 0 && $out == *"USAGE: toolbox greet [--name <name>]"* && $out == *"Who to greet."* && -z $err ]]; then pass "(a) help greet: greet's own help, exit 0"
else fail "(a) help greet: exit $status, output: $out $err"; fi

run "$toolbox" frobnicate
if [[ $status == 64 && $err == *"Unexpected argument 'frobnicate'"* ]]; then pass "(b) unknown command: exit 64, $(head -1 <<<"$err")"
else fail "(b) unknown command: exit $status, output: $out $err"; fi

run SECTION_REGISTRY_DISABLE=Sum "$toolbox" --help
help=$out
run SECTION_REGISTRY_DISABLE=Sum "$toolbox" sum 1 2
if [[ $help != *"sum "* && $help == *"greet "* && $status == 64 ]]; then pass "(c) disabled: sum is not in the help, \`sum 1 2\` exits 64"
else fail "(c) disabled: help: $help; sum: exit $status $err"; fi

run "$toolbox" translate hello --to fr
translated="$status $out $err"
run "$toolbox" translate goodbye
if [[ $translated == "0 bonjour " && $status == 64 && $err == *"the phrasebook has no 'de' for 'goodbye'"* ]]; then pass "(s) translate, through the Phrasebook module's service: bonjour; a word it lacks exits 64"
else fail "(s) translate: $translated; goodbye: exit $status $out $err"; fi

# Sends $2 to a slow command once it has taken over the signal (its
# SigCgt mask in /proc says so), and checks the exit status is $3.
interrupt() {
    local label=$1 signal=$2 expected=$3 pid bit
    "$toolbox" sum --delay 60000 1 >"$work/out" 2>"$work/err" &
    pid=$!
    bit=$(( $(kill -l "$signal") - 1 ))
    for _ in $(seq 200); do
        (( 0x$(awk '/^SigCgt/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0) >> bit & 1 )) && break
        sleep 0.05
    done
    kill "-$signal" "$pid"
    set +e
    wait "$pid"
    status=$?
    set -e
    if [[ $status == "$expected" && ! -s $work/out && ! -s $work/err ]]; then pass "$label: exit $status, nothing written"
    else fail "$label: exit $status (expected $expected), output: $(cat "$work/out" "$work/err")"; fi
}
interrupt "(d) SIGINT during a slow command" INT 130
interrupt "(e) SIGTERM during a slow command" TERM 143

good=0
for ((i = 0; i < runs; i++)); do
    run "$toolbox" greet --name Ada
    if [[ $status == 0 && $out == "Hello, Ada!" && -z $err ]]; then good=$((good + 1)); else echo "run $i: exit $status: $out $err" >&2; fi
done
if ((good == runs)); then pass "(f) $runs runs of greet: every one exit 0, its greeting, nothing on standard error"
else fail "(f) only $good of $runs runs of greet were clean"; fi

echo "== (g) start-up in instructions: toolbox greet --name Ada, modules against ArgumentParser alone"
# shellcheck source=scripts/callgrind.sh
source scripts/callgrind.sh
for program in toolbox toolbox-plain; do
    counts=()
    for _ in 1 2 3; do counts+=("$(instructions "$bin/$program" greet --name Ada)"); done
    declare "median_${program//-/_}=$(median "${counts[@]}")"
    declare "runs_${program//-/_}=$(IFS=,; echo "${counts[*]}" | sed 's/,/, /g')"
done
ratio=$(awk -v a="$median_toolbox" -v b="$median_toolbox_plain" 'BEGIN { printf "%.2f", a / b }')
echo "| \`greet --name Ada\`, instructions | median (3 runs) |"
echo "|---|---:|"
echo "| toolbox (4 feature modules, \`ModuleHost.main(command:)\`) | $(short "$median_toolbox") ($runs_toolbox) |"
echo "| toolbox-plain (ArgumentParser alone) | $(short "$median_toolbox_plain") ($runs_toolbox_plain) |"
echo "| ratio (target ≤ 1.10x) | ${ratio}x |"
page=Sources/SectionRegistry/SectionRegistry.docc/Benchmarks.md
# shellcheck source=scripts/recorded-ratios.sh
source scripts/recorded-ratios.sh
recorded=$(recorded_ratio "$page" toolbox_ratio)
if [[ -z $recorded ]]; then fail "(g) $page records no toolbox ratio (a line <!-- instructions recorded: toolbox_ratio = R -->)"
elif exceeds "$ratio" "$recorded" 5; then
    fail "(g) start-up: ${ratio}x ArgumentParser alone, more than 5% over the ${recorded}x Benchmarks.md records"
else pass "(g) start-up: ${ratio}x ArgumentParser alone (recorded ${recorded}x; fails above +5%)"; fi

run SALUTATION=Hi "$bin/toolbox-by-hand" hello Ada
if [[ $status == 0 && $out == "Hi, Ada!" && -z $err ]]; then pass "(w) by hand: \`toolbox-by-hand hello Ada\` uses its module's service"
else fail "(w) by hand: exit $status: $out $err"; fi

if ((${#failures[@]})); then
    echo "== toolbox-test: ${#failures[@]} failed" >&2
    exit 1
fi
echo "== toolbox-test: 0 failed"
