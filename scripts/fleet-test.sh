#!/usr/bin/env bash
# A fleet behind a real load balancer, rolled under load: HAProxy (Debian's
# package, installed when missing) in front of 3 replicas of the server
# example (notes-server, the host's default configuration: no lame-duck
# delay set), against a real PostgreSQL (scripts/postgres-up.sh).
#
# Each roll: 3 replicas up and healthy; a load through HAProxy for
# FLEET_TEST_SECONDS (default 40), and on until 2 s after the roll has ended
# however long it takes (a slow machine makes a slow roll); 2 s in,
# each replica in turn is replaced as a new pod replaces an old one: a new
# replica on a new port, HAProxy told through its runtime API and waited for
# until it checks the new one UP, then the old one SIGTERMed and waited for,
# and its slot put in maintenance.
# HAProxy health-checks /health/ready every 500 ms (fall 3, rise 2). Four
# rolls: HAProxy in TCP mode without retries (what Kubernetes' kube-proxy
# does) and in HTTP mode with retries, each under keep-alive load (wrk,
# FLEET_TEST_CLIENTS connections, default 16, /slow?ms=5) and under fresh
# connections (scripts/server-load.py, the same number of clients, one
# request a connection, /slow?ms=20).
#
# Every request is counted by the client: a connect, read or write error or
# a timeout (wrk), or a reset or close before a complete response, while
# connecting or after sending (server-load.py), and every non-2xx answer,
# is lost. The check fails if any roll lost a request, or any replica exited
# other than 0. Prints each replica's steps timed (ready, UP, exited after
# SIGTERM) and a table: lost per roll, per mode and load.
#
# FLEET_TEST_CONFIGURATION=release for release replicas (debug by default,
# the build scripts/server-test.sh made). FLEET_TEST_BY_HAND=1 rolls
# notes-by-hand too (the same routes, `app.runService()`, no modules; its
# checks are on /notes), measured for Deploying.md, never judged.
set -euo pipefail
cd "$(dirname "$0")/.."

package=Sources/Example/Server
configuration=${FLEET_TEST_CONFIGURATION:-debug}
seconds=${FLEET_TEST_SECONDS:-40}
clients=${FLEET_TEST_CLIENTS:-16}
base_port=${FLEET_TEST_PORT:-19000}
by_hand=${FLEET_TEST_BY_HAND:-0}
work=$(mktemp -d)
failures=()

pass() { echo "fleet-test: PASS $1"; }
fail() { echo "fleet-test: FAIL $1" >&2; failures+=("$1"); }

scripts/postgres-up.sh
source scripts/postgres-env.sh
command -v haproxy >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y haproxy; }
command -v wrk >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
haproxy -v | sed -n 1p  # sed reads it all: head could end the pipe early (SIGPIPE under pipefail)

echo "== swift build -c $configuration (the server example)"
swift build -c "$configuration" --package-path "$package" --product notes-server
swift build -c "$configuration" --package-path "$package" --product notes-by-hand
bin=$(swift build -c "$configuration" --package-path "$package" --show-bin-path)

frontend=$base_port
next_port=$((base_port + 1))
declare -A pids ports

# Sends one command to HAProxy's runtime API; prints its answer.
admin() {
    python3 - "$work/admin.sock" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
answer = b""
while chunk := s.recv(65536):
    answer += chunk
print(answer.decode(), end="")
PY
}

# Seconds since an $EPOCHREALTIME reading, to 0.01 s.
since() {
    awk -v from="$1" -v to="$EPOCHREALTIME" 'BEGIN { printf "%.2f", to - from }'
}

# The status HAProxy's checks give server SLOT (UP, DOWN, MAINT, ...).
server_status() {
    admin "show stat" | awk -F, -v slot="$1" '$1 == "replicas" && $2 == slot { print $18 }'
}

# Starts PROGRAM in SLOT on a new port and waits for its readiness line;
# then tells HAProxy its address, enables the slot, and waits until the
# checks say UP.
start_replica() {
    local slot=$1 program=$2 ready=$3 port=$next_port began=$EPOCHREALTIME
    next_port=$((next_port + 1))
    HTTP_PORT=$port "$program" >"$work/$slot-$port.log" 2>&1 &
    pids[$slot]=$!
    ports[$slot]=$port
    for _ in $(seq 600); do
        grep -q "$ready" "$work/$slot-$port.log" && break
        kill -0 "${pids[$slot]}" 2>/dev/null || { cat "$work/$slot-$port.log"; fail "$slot: the replica exited before it was ready"; return 1; }
        sleep 0.1
    done
    local was_ready=$EPOCHREALTIME
    admin "set server replicas/$slot addr 127.0.0.1 port $port" >/dev/null
    admin "set server replicas/$slot state ready" >/dev/null
    for _ in $(seq 200); do
        if [ "$(server_status "$slot")" = UP ]; then
            echo "  $slot (port $port): ready in $(since "$began") s, then UP in $(since "$was_ready") s"
            return 0
        fi
        sleep 0.05
    done
    fail "$slot: HAProxy did not see it UP within 10 s ($(server_status "$slot"))"
}

# SIGTERMs the replica in SLOT, waits for it, records its exit status, and
# puts the slot in maintenance.
stop_replica() {
    local slot=$1 status=0 began=$EPOCHREALTIME
    kill -TERM "${pids[$slot]}"
    wait "${pids[$slot]}" || status=$?
    echo "  $slot (port ${ports[$slot]}): exited $status in $(since "$began") s after SIGTERM"
    exit_statuses+=("$status")
    admin "set server replicas/$slot state maint" >/dev/null
}

# Writes HAProxy's configuration for MODE (tcp or http).
haproxy_config() {
    local mode=$1 check=$2
    cat <<CFG
global
    stats socket $work/admin.sock mode 600 level admin
defaults
    mode $mode
    timeout connect 2s
    timeout client 30s
    timeout server 30s
$(if [ "$mode" = tcp ]; then echo "    retries 0"; else printf '    retries 3\n    option redispatch 1\n    retry-on all-retryable-errors\n'; fi)
frontend fleet
    bind 127.0.0.1:$frontend
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET $check
    http-check expect status 200
    default-server inter 500 fall 3 rise 2
    server-template r 1-6 127.0.0.1:1 check disabled
CFG
}

# One roll: PROGRAM (modules or by-hand), MODE, LOAD; prints and records
# the requests lost and the replicas' exit statuses.
roll() {
    local served=$1 mode=$2 load=$3 program ready check
    if [ "$served" = modules ]; then
        program=$bin/notes-server ready="HTTP: ready" check=/health/ready
    else
        program=$bin/notes-by-hand ready="by hand: ready" check=/notes
    fi
    haproxy_config "$mode" "$check" >"$work/haproxy.cfg"
    haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
    local haproxy_pid=$!
    for _ in $(seq 100); do [ -S "$work/admin.sock" ] && break; sleep 0.05; done
    exit_statuses=()
    local slot
    for slot in r1 r2 r3; do start_replica "$slot" "$program" "$ready" || true; done
    # Both loads end at SIGINT with their counts printed; the 600 s is
    # only a backstop.
    case $load in
        keep-alive) wrk -t2 -c"$clients" -d600s "http://127.0.0.1:$frontend/slow?ms=5" >"$work/load.txt" 2>&1 & ;;
        fresh) python3 scripts/server-load.py "$frontend" "/slow?ms=20" 600 "$clients" >"$work/load.txt" 2>&1 & ;;
    esac
    local load_pid=$! began=$SECONDS
    sleep 2
    local old new
    for old in 1 2 3; do
        new=$((old + 3))
        start_replica "r$new" "$program" "$ready" || true
        stop_replica "r$old"
    done
    local rolled=$((SECONDS - began))
    sleep $(( seconds - rolled > 2 ? seconds - rolled : 2 ))
    kill -INT "$load_pid" 2>/dev/null || fail "$served, HAProxy $mode, $load: the load ended before the roll did ($(tail -3 "$work/load.txt"))"
    wait "$load_pid" || true
    for slot in r4 r5 r6; do stop_replica "$slot"; done
    kill "$haproxy_pid"
    wait "$haproxy_pid" 2>/dev/null || true
    rm -f "$work/admin.sock"
    local lost answered
    if [ "$load" = keep-alive ]; then
        local errors non2xx
        errors=$(sed -n 's/.*Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\).*/\1 \2 \3 \4/p' "$work/load.txt")
        non2xx=$(sed -n 's/.*Non-2xx or 3xx responses: \([0-9]*\).*/\1/p' "$work/load.txt")
        lost=$(( ${non2xx:-0} + $(echo "${errors:-0}" | tr ' ' '+') ))
        answered=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$work/load.txt")
    else
        lost=$(sed -n 's/.*answered_other=\([0-9]*\) lost=\([0-9]*\) refused=\([0-9]*\).*/\1+\2+\3/p' "$work/load.txt" | head -1)
        lost=$(( ${lost:-0} ))
        answered=$(sed -n 's/.*answered_2xx=\([0-9]*\).*/\1/p' "$work/load.txt" | head -1)
    fi
    local statuses
    statuses=$(IFS=,; echo "${exit_statuses[*]}")
    echo "roll: $served, HAProxy $mode, $load: lost $lost of $(( ${answered:-0} + lost )), rolled in ${rolled} s, replicas' exit statuses $statuses; $(grep -E 'Socket errors|answered_2xx|^lost' "$work/load.txt" | tr -s ' ' | tr '\n' ' ')"
    rows+=("| $served | $mode$([ "$mode" = http ] && echo ", retries" || echo ", no retries") | $load | ${answered:-0} | $lost | $statuses |")
    if [ "$served" = modules ]; then
        if [ "$lost" = 0 ] && [[ ${statuses//,/} =~ ^0+$ ]]; then
            pass "the modules, HAProxy $mode, $load: 0 lost, every replica exited 0"
        else
            fail "the modules, HAProxy $mode, $load: $lost lost, exit statuses $statuses"
        fi
    fi
}

rows=()
programs=(modules)
[ "$by_hand" = 1 ] && programs+=(by-hand)
for served in "${programs[@]}"; do
    for mode in tcp http; do
        for load in keep-alive fresh; do
            echo "== roll: $served, HAProxy $mode, $load"
            roll "$served" "$mode" "$load"
        done
    done
done

echo "| served by | HAProxy | load | answered | lost | replicas' exit statuses |"
echo "|---|---|---|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo "== fleet-test: ${#failures[@]} failed"
[ ${#failures[@]} = 0 ]
