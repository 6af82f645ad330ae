#!/usr/bin/env bash
# The Vapor example (Sources/Example/VaporServer: Vapor 4, four modules, the
# Logging trait on). Not run by CI: its first release build took 27.6
# minutes on this project's 2-core machine (under load), about half a CI
# run's budget. Installs curl when missing, builds the example in release (and
# prints how long the build took), then checks:
#   (a) routes from two modules answer: GET /hello/:name (Greetings) and
#       GET /slow?ms=N (Jobs), both 200;
#   (b) 5 requests in flight to /slow?ms=1500, then SIGTERM: all 5 answered
#       200, exit status 0, and the log shows the drain (HTTP's run asked to
#       drain, Vapor's server shut down, every module stopped);
#   (c) with the port in use, the launch fails: exit status 1, and one
#       line names the address (HTTP, which never served, is not listed as
#       stopped);
#   (d) a request longer than Vapor's shutdownTimeout, then SIGTERM: Vapor
#       drops it after 25 s, the HTTP module's run fails in its drain, the
#       shutdown's last line says so once, and the exit status is 3 (not
#       stopped cleanly), not a clean 0;
#   (e) vapor-execute-server, whose HTTP module runs app.execute(), whose
#       serve command takes SIGTERM over: both hear it, and a SIGTERM sent
#       as soon as the host noticed ends the process within 5 s, exit 0;
#   (f) behind a load balancer (LAME_DUCK_MS=1500, the host's lameDuckDelay):
#       /health/ready 200, then SIGTERM: /health/ready 503 at once, while
#       /health/live and the routes still answer 200, with Connection:
#       close; exit status 0, no sooner than the delay;
#   (g) VAPOR_TEST_LOAD_RUNS (default 3) runs of two loads with SIGTERM in
#       the middle: keep-alive (wrk, 32 connections) and fresh connections
#       (scripts/server-load.py, VAPOR_TEST_FRESH_CLIENTS clients, default
#       32), and of no load, against the modules and against the same
#       modules served by Vapor's serve command (vapor-execute-server): a
#       table of requests lost and of the time from SIGTERM to exit
#       (scripts/server-checks.sh counts them); the modules must lose none
#       and exit 0 every time (app.execute() is measured, not judged).
# Prints each check's result and what it counted; any violation fails the
# script (exit 1) after every check has run.
set -euo pipefail
cd "$(dirname "$0")/.."

package=Sources/Example/VaporServer
# release by default; VAPOR_TEST_CONFIGURATION=debug checks a debug build.
configuration=${VAPOR_TEST_CONFIGURATION:-release}
port=${VAPOR_TEST_PORT:-18090}
load_runs=${VAPOR_TEST_LOAD_RUNS:-3}
fresh_clients=${VAPOR_TEST_FRESH_CLIENTS:-32}
work=$(mktemp -d)
failures=()

pass() { echo "vapor-test: PASS $1"; }
fail() { echo "vapor-test: FAIL $1" >&2; failures+=("$1"); }

echo "== curl"
command -v curl >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y curl; }

echo "== swift build -c $configuration (the example; its first build takes many minutes)"
began=$(date +%s)
swift build --package-path "$package" -c "$configuration" 2>&1 | tee "$work/build.log"
echo "vapor-test: the $configuration build took $(($(date +%s) - began)) s (wall time)"
# Warnings in this repository's files: the example's and SectionRegistry's
# (those of the checkouts are not ours to fix).
if grep -E "^$PWD/[^ ]*:[0-9]+:[0-9]+: warning:" "$work/build.log" | grep -v "/checkouts/"; then
    echo "vapor-test: compiler warnings (above); the build must have none" >&2
    exit 1
fi
bin=$(swift build --package-path "$package" -c "$configuration" --show-bin-path)
server=$bin/vapor-server

source scripts/server-checks.sh

# Starts the server with its log in $work/$1.log, and the environment
# assignments after it (start_program, scripts/server-checks.sh).
start_server() {
    start_program "$server" "HTTP: ready" "$@"
}

url=http://127.0.0.1:$port

echo "== (a) routes from two modules: GET /hello/ada (Greetings), GET /slow?ms=10 (Jobs)"
if start_server routes; then
    hello=$(curl -s -o "$work/hello.body" -w '%{http_code}' "$url/hello/ada" || true)
    slow=$(curl -s -o "$work/slow.body" -w '%{http_code}' "$url/slow?ms=10" || true)
    echo "GET /hello/ada -> $hello $(cat "$work/hello.body" 2>/dev/null)"
    echo "GET /slow?ms=10 -> $slow $(cat "$work/slow.body" 2>/dev/null)"
    kill -TERM "$pid"
    wait_server
    if [ "$hello" = 200 ] && grep -q "Hello, ada!" "$work/hello.body" && [ "$slow" = 200 ] && grep -q "done" "$work/slow.body"; then
        pass "(a) routes: /hello/ada 200 (Greetings), /slow 200 (Jobs)"
    else
        fail "(a) routes: /hello/ada $hello, /slow $slow"
    fi
fi

echo "== (b) 5 requests to /slow?ms=1500 in flight, then SIGTERM"
if start_server inflight; then
    for i in 1 2 3 4 5; do
        (code=0
         curl -s -o "$work/slow.$i.body" -w '%{http_code}' --max-time 30 "$url/slow?ms=1500" >"$work/slow.$i.code" 2>"$work/slow.$i.err" || code=$?
         echo " curl=$code" >>"$work/slow.$i.code") &
    done
    sleep 0.5
    kill -TERM "$pid"
    sigterm=$(date +%s%N)
    wait_server
    exited=$(date +%s%N)
    wait
    answered=0
    for i in 1 2 3 4 5; do
        echo "request $i: $(tr -d '\n' <"$work/slow.$i.code") $(cat "$work/slow.$i.body" 2>/dev/null | tr -d '\n')"
        grep -q "^200 curl=0$" "$work/slow.$i.code" && grep -q "done" "$work/slow.$i.body" && answered=$((answered + 1))
    done
    echo "exit status $status, $(((exited - sigterm) / 1000000)) ms after SIGTERM; $answered of 5 answered 200"
    tail -n 12 "$work/inflight.log"
    # The drain, in the log: HTTP's run heard the request, and the host
    # stopped every module once it had returned.
    drained=no
    grep -q "HTTP: draining" "$work/inflight.log" && grep -q "SectionRegistry: stopped: " "$work/inflight.log" && drained=yes
    if [ "$answered" = 5 ] && [ "$status" = 0 ] && [ "$drained" = yes ]; then
        pass "(b) in flight: 5 of 5 answered 200, exit 0, the drain in the log"
    else
        fail "(b) in flight: $answered of 5 answered 200, exit status $status, drain in the log: $drained"
    fi
fi

echo "== (c) the port in use: the launch fails with exit status 1 and the bind error"
python3 -c "
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(); print('holding', flush=True); time.sleep(120)" >"$work/holder.txt" &
holder=$!
for _ in $(seq 50); do grep -q holding "$work/holder.txt" && break; sleep 0.1; done
status=0
PORT=$port timeout 60 "$server" >"$work/inuse.log" 2>&1 || status=$?
kill "$holder"
cat "$work/inuse.log"
# The whole line, once: the address, no module stopped (none had started
# before HTTP, a late module, but Routes, Greetings and Jobs, stopped again).
expected="SectionRegistry: module 'HTTP' failed in run: cannot listen on 127.0.0.1:$port: Address already in use (errno 98) (stopped again: Jobs, Greetings, Routes)"
mentions=$(grep -c "Address already in use" "$work/inuse.log" || true)
if [ "$status" = 1 ] && [ "$mentions" = 1 ] && [ "$(tail -n 1 "$work/inuse.log")" = "$expected" ]; then
    pass "(c) port in use: exit 1, one line naming the address"
else
    fail "(c) port in use: exit status $status, the bind error on $mentions lines, the last line not: $expected"
fi

echo "== (d) a request longer than Vapor's shutdownTimeout (25 s: the host's 30 s drainTimeLimit less a margin), then SIGTERM"
if start_server overlong; then
    curl -s -o /dev/null --max-time 60 "$url/slow?ms=40000" >/dev/null 2>&1 &
    sleep 0.5
    kill -TERM "$pid"
    sigterm=$(date +%s)
    wait_server
    took=$(($(date +%s) - sigterm))
    wait
    tail -n 6 "$work/overlong.log"
    # Not a clean stop: the dropped request makes HTTP's run fail in its
    # drain, said once, by the shutdown's last line.
    said=$(grep -c "did not finish the requests in flight within its shutdownTimeout" "$work/overlong.log" || true)
    if [ "$status" = 3 ] && [ "$said" = 1 ] \
        && tail -n 1 "$work/overlong.log" | grep -q "ERROR SectionRegistry: stopped with 1 failure: HTTP run failed .* ms after the start of the drain: Vapor's server did not finish"; then
        pass "(d) past Vapor's limit: exit 3 after $took s, the dropped request named once, counted from the drain"
    else
        fail "(d) past Vapor's limit: exit status $status after $took s, the error on $said lines"
    fi
fi

echo "== (e) served with app.execute(), which takes SIGTERM over: SIGTERM ends the process within 5 s"
if start_program "$bin/vapor-execute-server" "Server started on" execute; then
    # The host looks at its handlers once a second.
    for _ in $(seq 50); do grep -q "put its handler of SIGTERM over the host's" "$work/execute.log" && break; sleep 0.1; done
    kill -TERM "$pid"
    sigterm=$(date +%s%N)
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        wait_server
        cat "$work/execute.log"
        fail "(e) app.execute(): still running 5 s after SIGTERM"
    else
        wait_server
        took=$((($(date +%s%N) - sigterm) / 1000000))
        tail -n 4 "$work/execute.log"
        if [ "$status" = 0 ]; then
            pass "(e) app.execute(): SIGTERM ended the process after $took ms, exit 0"
        else
            fail "(e) app.execute(): exit status $status after $took ms"
        fi
    fi
fi

echo "== (f) behind a load balancer: LAME_DUCK_MS=1500, then SIGTERM"
start_server lameduck LAME_DUCK_MS=1500 && lame_duck_check "(f)" /hello/ada

echo "== (g) the loads, SIGTERM in the middle, $load_runs runs each: the modules, and the same modules served by Vapor's serve command (vapor-execute-server)"
# The loads and how a lost request is counted: load_run, scripts/server-checks.sh.
command -v wrk >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
for ((run = 1; run <= load_runs; run++)); do
    for load in keep-alive fresh idle; do
        for program in modules app.execute; do
            if [ "$program" = modules ]; then start_server "load-$run"; else start_program "$bin/vapor-execute-server" "Server started on" "load-$run"; fi || continue
            echo -n "run $run, "
            load_run "$load" "$load $program"
        done
    done
done
load_table "$load_runs" "keep-alive modules" "keep-alive app.execute" "fresh modules" "fresh app.execute" "idle modules" "idle app.execute"
if loads_clean "keep-alive modules" "fresh modules" "idle modules"; then
    pass "(g) loads: the modules lost no request in $load_runs keep-alive and $load_runs fresh-connection runs, every exit 0"
else
    fail "(g) loads: the modules lost ${lost_total[keep-alive modules]:-?} (keep-alive) and ${lost_total[fresh modules]:-?} (fresh), exit statuses ${statuses[keep-alive modules]:-?}; ${statuses[fresh modules]:-?}"
fi

echo "== vapor-test: ${#failures[@]} failed"
if [ "${#failures[@]}" -gt 0 ]; then
    printf '  %s\n' "${failures[@]}" >&2
    exit 1
fi
