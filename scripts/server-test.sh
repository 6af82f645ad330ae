#!/usr/bin/env bash
# The server example (Sources/Example/Server: Hummingbird 2, PostgresNIO,
# four modules, the traits on) against a real PostgreSQL on 127.0.0.1, no
# mock. Installs PostgreSQL (Debian's package) and curl when missing, starts
# the cluster, creates the role and the database, builds the example (in
# debug; SERVER_TEST_CONFIGURATION=release), runs the modules' own tests
# ((t): `swift test`, SectionRegistryTesting and HummingbirdTesting against
# that PostgreSQL), then checks:
#   (a) 5 requests in flight to /slow?ms=1500, then SIGTERM: all 5 answered
#       200, exit status 0;
#   (c) the table migration in Notes.start worked: POST /notes 201, then
#       GET /notes 200 with the note;
#   (d) the readiness line (HTTP's onServerRunning) comes after Hummingbird's
#       bind line in the log;
#   (e) with the port in use, the launch fails: exit status 1, the bind
#       error in one log line;
#   (g) behind a load balancer (SECTION_REGISTRY_LAME_DUCK_DELAY=1.5, the host's lameDuckDelay):
#       /health/ready 200, then SIGTERM: /health/ready 503 at once, while
#       /health/live and the routes are still served during the delay; exit
#       status 0, no sooner than the delay;
#   (h) SERVER_TEST_LOAD_RUNS (default 3) runs of two loads with SIGTERM in
#       the middle: keep-alive (wrk, 32 connections) and fresh connections
#       (scripts/server-load.py, SERVER_TEST_FRESH_CLIENTS clients, default
#       8, one request a connection), and
#       of no load at all, against the modules and against the same routes
#       served by hand (notes-by-hand, `app.runService()`): a table of
#       requests lost and of the time from SIGTERM to exit; the modules must
#       lose none and exit 0 every time (by hand is measured, not judged);
#   (i) the Configuration, Tracing and Metrics traits: the server reads a
#       JSON file (SERVER_CONFIG_FILE) with notes.maxBodyBytes 65536, a
#       20-byte POST is 201; the file changed to 10 and SIGHUP: the Notes
#       module's reload reads it and the same POST is 413; the host's log
#       lines are timestamped (SECTION_REGISTRY_LOG_TIMESTAMPS); /metrics
#       has the documented names and values, and the spans written at exit
#       (SERVER_SPANS_FILE) the deploy's tree (scripts/check-telemetry.py);
#   (f) the supervisor recipe (notes-supervised, the host in a ServiceGroup):
#       GET /health (outside the modules) 200, SIGHUP reloads and the
#       process lives on, SIGTERM ends it with exit status 0.
# Prints each check's result and what it counted; any violation fails the
# script (exit 1) after every check has run.
set -euo pipefail
cd "$(dirname "$0")/.."

package=Sources/Example/Server
port=${SERVER_TEST_PORT:-18080}
# Debug by default: the checks are of behaviour, and a first release build
# of the dependencies takes about 12 minutes on 2 cores (debug: see the
# closing note of the testing issue); SERVER_TEST_CONFIGURATION=release for
# the release server.
configuration=${SERVER_TEST_CONFIGURATION:-debug}
load_runs=${SERVER_TEST_LOAD_RUNS:-3}
fresh_clients=${SERVER_TEST_FRESH_CLIENTS:-8}
source scripts/postgres-env.sh
work=$(mktemp -d)
failures=()

pass() { echo "server-test: PASS $1"; }
fail() { echo "server-test: FAIL $1" >&2; failures+=("$1"); }

scripts/postgres-up.sh

echo "== curl"
command -v curl >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y curl; }

echo "== swift build -c $configuration (the example; its first build takes several minutes)"
swift build --package-path "$package" -c "$configuration" 2>&1 | tee "$work/build.log"
server=$(swift build --package-path "$package" -c "$configuration" --show-bin-path)/notes-server

echo "== swift test (the modules' own tests: SectionRegistryTesting's test host, HummingbirdTesting's clients, this PostgreSQL)"
set +e
swift test --package-path "$package" 2>&1 | tee "$work/test.log"
status=${PIPESTATUS[0]}
set -e
if [[ $status == 0 ]]; then pass "(t) swift test: the modules' tests pass"; else fail "(t) swift test: exit $status (above)"; fi

# Warnings in this repository's files: the example's and SectionRegistry's
# (those of the checkouts, and SwiftPM's about a dependency's unhandled
# files, are not ours to fix).
if grep "warning:" "$work/build.log" "$work/test.log" | grep -F "$PWD/" | grep -v "/checkouts/"; then
    echo "server-test: compiler warnings (above); the build must have none" >&2
    exit 1
fi

# Each run starts from an empty table, created by Notes.start.
runuser -u postgres -- psql -q -d "$DATABASE_NAME" -c "SET client_min_messages = warning; DROP TABLE IF EXISTS notes"

source scripts/server-checks.sh

# Starts the server with its log in $work/$1.log, and the environment
# assignments after it (start_program, scripts/server-checks.sh).
start_server() {
    start_program "$server" "HTTP: ready" "$@"
}

url=http://127.0.0.1:$port

echo "== (c) the migration in Notes.start: POST /notes, then GET /notes"
if start_server migration; then
    posted=$(curl -s -o "$work/post.json" -w '%{http_code}' -X POST --data 'buy milk' "$url/notes" || true)
    listed=$(curl -s -o "$work/get.json" -w '%{http_code}' "$url/notes" || true)
    echo "POST /notes -> $posted $(cat "$work/post.json" 2>/dev/null)"
    echo "GET /notes -> $listed $(cat "$work/get.json" 2>/dev/null)"
    if [ "$posted" = 201 ] && [ "$listed" = 200 ] && grep -q '"body":"buy milk"' "$work/get.json"; then
        pass "(c) migration: the table exists, POST 201, GET 200 with the note"
    else
        fail "(c) migration: POST $posted, GET $listed"
    fi

    echo "== (d) the readiness line comes after the bind"
    bind=$(grep -n "Server started and listening" "$work/migration.log" | head -1 | cut -d: -f1)
    ready=$(grep -n "HTTP: ready" "$work/migration.log" | head -1 | cut -d: -f1)
    grep -n "Server started and listening\|HTTP: ready\|running" "$work/migration.log" || true
    if [ -n "$bind" ] && [ -n "$ready" ] && [ "$bind" -lt "$ready" ]; then
        pass "(d) readiness: bind on line $bind, readiness on line $ready"
    else
        fail "(d) readiness: bind line '${bind:-none}', readiness line '${ready:-none}'"
    fi
    kill -TERM "$pid"
    wait_server
fi

echo "== (a) 5 requests to /slow?ms=1500 in flight, then SIGTERM"
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
        grep -q "^200 curl=0$" "$work/slow.$i.code" && answered=$((answered + 1))
    done
    echo "exit status $status, $(((exited - sigterm) / 1000000)) ms after SIGTERM; $answered of 5 answered 200"
    tail -n 12 "$work/inflight.log"
    if [ "$answered" = 5 ] && [ "$status" = 0 ]; then
        pass "(a) in flight: 5 of 5 answered 200, exit 0"
    else
        fail "(a) in flight: $answered of 5 answered 200, exit status $status"
    fi
fi

echo "== (g) behind a load balancer: SECTION_REGISTRY_LAME_DUCK_DELAY=1.5, then SIGTERM"
start_server lameduck SECTION_REGISTRY_LAME_DUCK_DELAY=1.5 && lame_duck_check "(g)" /notes

echo "== (i) configuration, traces and metrics: a JSON file changed under the server, SIGHUP, /metrics, the spans of the deploy"
echo '{"notes": {"maxBodyBytes": 65536}}' >"$work/config.json"
if start_server telemetry SERVER_CONFIG_FILE="$work/config.json" SERVER_CONFIG_POLL_SECONDS=3600 \
        SERVER_SPANS_FILE="$work/spans.jsonl" SECTION_REGISTRY_LOG_TIMESTAMPS=true SECTION_REGISTRY_LOG_LEVEL=info; then
    note=twenty-bytes-of-note
    before=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data "$note" "$url/notes" || true)
    echo '{"notes": {"maxBodyBytes": 10}}' >"$work/config.json"
    kill -HUP "$pid"
    for _ in $(seq 100); do grep -q "Notes: reloaded, notes up to 10 bytes" "$work/telemetry.log" && break; sleep 0.1; done
    after=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data "$note" "$url/notes" || true)
    curl -s -o "$work/metrics.txt" -w '%{http_code}' "$url/metrics" >"$work/metrics.code" || true
    kill -TERM "$pid"
    wait_server
    grep "reload\|configuration" "$work/telemetry.log" || true
    grep "^section_registry_" "$work/metrics.txt" | grep -v "_bucket{" | head -20 || true
    reloads=$(grep -c "Notes: reloaded, notes up to 10 bytes" "$work/telemetry.log" || true)
    stamped=$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z (INFO|NOTICE|WARNING) SectionRegistry: ' "$work/telemetry.log" || true)
    warned=$(grep -c "another library put its handler" "$work/telemetry.log" || true)
    heard=$(grep -c "SectionRegistry: SIGHUP, reloading" "$work/telemetry.log" || true)
    echo "POST $note before the change: $before, after it: $after; reload lines with 10 bytes: $reloads; the host heard SIGHUP: $heard;" \
        "timestamped host lines: $stamped; exit $status"
    if [ "$before" = 201 ] && [ "$after" = 413 ] && [ "$reloads" -ge 1 ] && [ "$heard" = 1 ] && [ "$stamped" -ge 3 ] && [ "$warned" = 0 ] \
        && [ "$status" = 0 ]; then
        pass "(i) configuration: the changed file reached Notes at SIGHUP (POST 201, then 413 over 10 bytes), the host heard the SIGHUP too, log lines timestamped, exit 0"
    else
        fail "(i) configuration: POST $before then $after, $reloads reload lines, SIGHUP heard $heard, $stamped stamped lines, $warned signal warnings, exit $status"
    fi
    if python3 scripts/check-telemetry.py "$work/metrics.txt" "$(cat "$work/metrics.code")" "$work/spans.jsonl"; then
        pass "(i) /metrics answers with the documented names and values; the spans file has the deploy's tree"
    else
        fail "(i) telemetry: scripts/check-telemetry.py (above)"
    fi
fi

echo "== (h) the loads, SIGTERM in the middle, $load_runs runs each: the modules, and the same routes by hand (notes-by-hand, app.runService())"
# The loads and how a lost request is counted: load_run, scripts/server-checks.sh.
command -v wrk >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
by_hand=$(dirname "$server")/notes-by-hand
for ((run = 1; run <= load_runs; run++)); do
    for load in keep-alive fresh idle; do
        for program in modules by-hand; do
            if [ "$program" = modules ]; then start_server "load-$run"; else start_program "$by_hand" "by hand: ready" "load-$run"; fi || continue
            echo -n "run $run, "
            load_run "$load" "$load $program"
        done
    done
done
load_table "$load_runs" "keep-alive modules" "keep-alive by-hand" "fresh modules" "fresh by-hand" "idle modules" "idle by-hand"
if loads_clean "keep-alive modules" "fresh modules" "idle modules"; then
    pass "(h) loads: the modules lost no request in $load_runs keep-alive and $load_runs fresh-connection runs, every exit 0"
else
    fail "(h) loads: the modules lost ${lost_total[keep-alive modules]:-?} (keep-alive) and ${lost_total[fresh modules]:-?} (fresh), exit statuses ${statuses[keep-alive modules]:-?}; ${statuses[fresh modules]:-?}"
fi

echo "== (e) the port in use: the launch fails with exit status 1 and one message"
python3 -c "
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(); print('holding', flush=True); time.sleep(120)" >"$work/holder.txt" &
holder=$!
for _ in $(seq 50); do grep -q holding "$work/holder.txt" && break; sleep 0.1; done
status=0
HTTP_PORT=$port timeout 60 "$server" >"$work/inuse.log" 2>&1 || status=$?
kill "$holder"
cat "$work/inuse.log"
mentions=$(grep -c "Address already in use" "$work/inuse.log" || true)
if [ "$status" = 1 ] && [ "$mentions" = 1 ]; then
    pass "(e) port in use: exit 1, the bind error on one line"
else
    fail "(e) port in use: exit status $status, the bind error on $mentions lines"
fi

echo "== (f) the supervisor recipe, notes-supervised: SIGHUP reloads and never kills; SIGTERM ends the group, exit 0"
admin=http://127.0.0.1:$((port + 1))
HTTP_PORT=$port ADMIN_PORT=$((port + 1)) "$(dirname "$server")/notes-supervised" >"$work/supervised.log" 2>&1 &
pid=$!
health=000
for _ in $(seq 600); do
    health=$(curl -s -o /dev/null -w '%{http_code}' "$admin/health" || true)
    [ "$health" = 200 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -HUP "$pid" 2>/dev/null || true
sleep 1
alive=no
kill -0 "$pid" 2>/dev/null && alive=yes
after=$(curl -s -o /dev/null -w '%{http_code}' "$admin/health" || true)
kill -TERM "$pid" 2>/dev/null || true
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { echo "not ended 30 s after SIGTERM: SIGKILL"; kill -KILL "$pid"; }
wait_server
tail -n 12 "$work/supervised.log"
echo "GET /health before SIGHUP: $health; alive after SIGHUP: $alive; GET /health after: $after; exit status $status"
if [ "$health" = 200 ] && [ "$alive" = yes ] && [ "$after" = 200 ] && [ "$status" = 0 ]; then
    pass "(f) supervisor: health 200, SIGHUP reloaded (alive, health 200), SIGTERM exit 0"
else
    fail "(f) supervisor: health $health, alive after SIGHUP $alive, health after $after, exit status $status"
fi

echo "== server-test: ${#failures[@]} failed"
if [ "${#failures[@]}" -gt 0 ]; then
    printf '  %s\n' "${failures[@]}" >&2
    exit 1
fi
