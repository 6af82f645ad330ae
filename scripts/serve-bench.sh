#!/usr/bin/env bash
# serve-bench.sh [-r RUNS] [-m FILE] [REQUESTS]
#
# What `context.serve(app)` adds to each request, in instructions (issue
# 55). Sources/Benchmarks/Serving's serve-bench, one module answering GET
# /hello, runs under callgrind with its application run by
# `context.serve(app)`, and again by a plain `try await app.run()`. One
# keep-alive client sends each 200 requests, then REQUESTS more (default
# 2,000) counted alone (callgrind_control zeroes the counts before them and
# dumps them after), then SIGTERM stops it. A request's cost is the count
# over REQUESTS; the ratio is serve's over plain's. Prints a markdown table
# (medians of RUNS runs of each way, default 3); with -m, also the figures
# as `serve_request.serve`, `serve_request.plain` and `serve_ratio` lines,
# for scripts/bench.sh's check.
#
# The counts of two runs of one way differ by up to about 1.5%: the
# server's threads (NIO's event loop, the concurrency pool's) interleave
# differently from run to run, and with them the waits and the runtime's
# cache lookups. Compare medians.
#
# serve-bench is built in release, as a server runs (a first build compiles
# swift-nio and Hummingbird: about 5 minutes on 2 cores).
#
# Needs valgrind, objcopy, cc (scripts/callgrind.sh) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

runs=3
machine_file=
usage="usage: $0 [-r RUNS] [-m FILE] [REQUESTS]"
while getopts "r:m:" option; do
    case $option in
        r) runs=$OPTARG ;;
        m) machine_file=$OPTARG ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
requests=${1:-2000}
command -v python3 >/dev/null || { echo "serve-bench.sh: needs python3" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/serve-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=scripts/callgrind.sh
source scripts/callgrind.sh

package=(--package-path Sources/Benchmarks/Serving --scratch-path "$root/.build-bench/serving" -c release)
echo "serve-bench.sh: building serve-bench (release; a first build compiles swift-nio and Hummingbird)..." >&2
swift build "${package[@]}" --product serve-bench 2>&1 | grep -E "warning:|error:" | grep -v "swift-distributed-tracing. found 1 file" >&2 || true
swift build "${package[@]}" --product serve-bench >/dev/null
program=$(swift build "${package[@]}" --show-bin-path)/serve-bench
copy=$work/serve-bench
objcopy --strip-debug "$program" "$copy"

# One run: the instructions callgrind counted in serve-bench's process while
# it answered $2 requests, its application run the way $1 says. The client
# sends 200 requests first (the first requests of a process make types and
# caches), then has callgrind zero its counts, sends the $2, and has it dump
# them: the start and the stop are not counted.
count() {
    local way=$1 requests=$2 out=$work/run.out log=$work/run.log pid port=
    : >"$out"
    rm -f "$work"/callgrind.out*
    SERVE_BENCH_RUN=$way LD_PRELOAD="$work/shim.so" \
        valgrind --tool=callgrind ${CALLGRIND_OPTIONS:-} --callgrind-out-file="$work/callgrind.out" "$copy" >"$out" 2>"$log" &
    pid=$!
    for _ in $(seq 1200); do
        port=$(sed -nE 's/^serve-bench: port ([0-9]+)$/\1/p' "$out")
        [[ -n $port ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z $port ]]; then
        kill -KILL "$pid" 2>/dev/null || true
        echo "serve-bench.sh: serve-bench ($way) did not listen:" >&2
        tail -20 "$log" "$out" >&2
        return 1
    fi
    python3 - "$port" "$requests" "$pid" <<'PY'
import http.client, subprocess, sys
port, requests, pid = (int(argument) for argument in sys.argv[1:])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

def send(count):
    for n in range(count):
        connection.request("GET", "/hello")
        response = connection.getresponse()
        body = response.read()
        if response.status != 200 or body != b"hello\n":
            sys.exit(f"serve-bench.sh: request {n + 1}: {response.status} {body!r}")
        if response.getheader("Connection", "").lower() == "close":
            sys.exit(f"serve-bench.sh: request {n + 1} was answered Connection: close")

send(200)
subprocess.run(["callgrind_control", "--zero", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
send(requests)
subprocess.run(["callgrind_control", "--dump", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
connection.close()
PY
    kill -TERM "$pid"
    wait "$pid" || { echo "serve-bench.sh: serve-bench ($way) did not exit 0 at SIGTERM:" >&2; tail -20 "$log" >&2; return 1; }
    # The dump callgrind_control asked for is the first numbered file.
    sed -nE 's/^summary: ([0-9]+)$/\1/p' "$work/callgrind.out.1"
}

declare -A per_request
runs_text=()
for way in serve plain; do
    echo "serve-bench.sh: $way, $runs runs of $requests requests, under callgrind..." >&2
    counts=()
    for _ in $(seq "$runs"); do
        total=$(count "$way" "$requests")
        counts+=($((total / requests)))
    done
    per_request[$way]=$(median "${counts[@]}")
    runs_text+=("$way: ${counts[*]} (spread $(spread "${counts[@]}"))")
done
ratio=$(awk -v s="${per_request[serve]}" -v p="${per_request[plain]}" 'BEGIN { printf "%.3f", s / p }')
added=$((per_request[serve] - per_request[plain]))
verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02) ? "met" : "missed" }')

echo "| a request on one keep-alive connection (release build; instructions, $requests requests counted) | \`app.run()\` | \`context.serve(app)\` | more a request | serve / plain, target ≤ 1.02 |"
echo "|---|---:|---:|---:|---:|"
echo "| GET /hello (a 6-byte answer) | ${per_request[plain]} | ${per_request[serve]} | $added | ${ratio}x, $verdict |"
echo
echo "Instructions a request, each run: $(IFS=';'; echo "${runs_text[*]}" | sed 's/;/; /g')."
if [[ -n $machine_file ]]; then
    {
        echo "serve_request.serve ${per_request[serve]}"
        echo "serve_request.plain ${per_request[plain]}"
        echo "serve_ratio $ratio"
    } >>"$machine_file"
fi
