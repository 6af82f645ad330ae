# Sourced, not run: the instruction ratios the Benchmarks article records,
# each on a machine-readable line `<!-- instructions recorded: KEY = R -->`
# (scripts/bench.sh --write-docs writes app_ratio.100 and drain_ratio.100;
# toolbox_ratio is written by hand), read by scripts/check-bench.sh and
# scripts/toolbox-test.sh.

# recorded_ratio PAGE KEY: prints the ratio PAGE records under KEY, or
# nothing.
recorded_ratio() {
    sed -nE "s/^<!-- instructions recorded: ${2//./\\.} = ([0-9.]+) -->\$/\\1/p" "$1"
}

# exceeds NOW RECORDED PERCENT: succeeds when NOW is more than PERCENT% over
# RECORDED.
exceeds() {
    awk -v now="$1" -v recorded="$2" -v percent="$3" 'BEGIN { exit !(now > recorded * (1 + percent / 100)) }'
}
