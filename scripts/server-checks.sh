# Sourced by scripts/server-test.sh (Hummingbird) and scripts/vapor-test.sh
# (Vapor): starting a server, waiting for its exit, the lame duck behind a
# balancer, and the loads with SIGTERM in the middle, counted the same way
# for both. Expects $work (a scratch directory), $port, $fresh_clients and
# `pass` and `fail` functions.

# Starts PROGRAM with its log in $work/NAME.log, its port in PORT and HTTP_PORT
# (the server example reads http.port), and the environment
# assignments after NAME; returns once the log has READY_LINE, or fails if
# the program exits first or takes over 60 s. Its pid in $pid.
#   start_program PROGRAM READY_LINE NAME [VAR=value ...]
start_program() {
    local program=$1 ready=$2
    shift 2
    env PORT="$port" HTTP_PORT="$port" "${@:2}" "$program" >"$work/$1.log" 2>&1 &
    pid=$!
    for _ in $(seq 600); do
        grep -q "$ready" "$work/$1.log" && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$work/$1.log"; fail "$1: the server exited before it was ready"; return 1; }
        sleep 0.1
    done
    cat "$work/$1.log"
    fail "$1: the server was not ready within 60 s"
    kill -KILL "$pid"
    return 1
}

# Waits for the server to exit; its status in $status.
wait_server() {
    status=0
    wait "$pid" || status=$?
}

# The loads, with the server $pid ready on $port:
#   keep-alive: wrk, 32 connections for 4 s on /slow?ms=5, SIGTERM after
#     2 s; a request lost is a read error (the connection closed with the
#     request sent and no response), a timeout or a non-2xx answer; a write
#     or connect error is a connection the server no longer accepted
#     (refused).
#   fresh: scripts/server-load.py, $fresh_clients clients, one request a
#     connection, on /slow?ms=20 for 4 s; it sorts every request: answered
#     2xx, answered other, lost (connected and sent, then closed or reset
#     with no complete response, or reset during connect), refused (never
#     accepted); lost and answered other count.
#   idle: no load, for the shutdown time alone.
# Records the run under KEY (lost_total, runs_with_loss, statuses,
# shutdown_ms) and prints it.
#   load_run LOAD KEY
declare -A lost_total runs_with_loss statuses shutdown_ms
load_run() {
    local load=$1 key=$2 load_pid sigterm lost errors non2xx
    case $load in
        keep-alive) wrk -t2 -c32 -d4s "http://127.0.0.1:$port/slow?ms=5" >"$work/load.txt" 2>&1 & ;;
        fresh) python3 scripts/server-load.py "$port" "/slow?ms=20" 4 "$fresh_clients" >"$work/load.txt" 2>&1 & ;;
        idle) : >"$work/load.txt"; sleep 4 & ;;
    esac
    load_pid=$!
    sleep 2
    kill -TERM "$pid"
    sigterm=$(date +%s%N)
    wait_server
    shutdown_ms[$key]="${shutdown_ms[$key]:+${shutdown_ms[$key]} }$((($(date +%s%N) - sigterm) / 1000000))"
    wait "$load_pid" || true
    if [ "$load" = idle ]; then
        lost=0
    elif [ "$load" = keep-alive ]; then
        errors=$(sed -n 's/.*Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\).*/\2 \4/p' "$work/load.txt")
        non2xx=$(sed -n 's/.*Non-2xx or 3xx responses: \([0-9]*\).*/\1/p' "$work/load.txt")
        lost=$(( ${errors%% *} + ${errors##* } + ${non2xx:-0} ))
        [ -n "$errors" ] || lost=0
    else
        lost=$(( $(sed -n 's/.*lost=\([0-9]*\).*/\1/p' "$work/load.txt" | head -1) + $(sed -n 's/.*answered_other=\([0-9]*\).*/\1/p' "$work/load.txt" | head -1) ))
    fi
    echo "$key: lost $lost, exit status $status; $(grep -E 'requests in|Socket errors|answered_2xx' "$work/load.txt" | tr -s ' ' | tr '\n' ' ')"
    lost_total[$key]=$(( ${lost_total[$key]:-0} + lost ))
    (( lost == 0 )) || runs_with_loss[$key]=$(( ${runs_with_loss[$key]:-0} + 1 ))
    statuses[$key]="${statuses[$key]:+${statuses[$key]}, }$status"
}

# The table of the runs recorded under each KEY ("LOAD PROGRAM").
#   load_table RUNS KEY...
load_table() {
    local runs=$1 key median
    shift
    echo "| load | served by | runs | lost, in all | runs with a loss | exit statuses | SIGTERM to exit, ms (median) |"
    echo "|---|---|---:|---:|---:|---|---:|"
    for key in "$@"; do
        median=$(tr ' ' '\n' <<<"${shutdown_ms[$key]:-}" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
        echo "| ${key% *} | ${key#* } | $runs | ${lost_total[$key]:-0} | ${runs_with_loss[$key]:-0} | ${statuses[$key]:-} | ${median:-?} |"
    done
}

# Whether every run recorded under each KEY lost nothing and exited 0.
#   loads_clean KEY...
loads_clean() {
    local key
    for key in "$@"; do
        [ "${lost_total[$key]:-0}" = 0 ] && [[ ${statuses[$key]:-x} =~ ^0(,\ 0)*$ ]] || return 1
    done
}

# The lame duck behind a balancer, for the server $pid started with
# LAME_DUCK_MS=1500 and ready: /health/ready 200, then SIGTERM: 503 at once,
# while /health/live and ROUTE still answer 200, ROUTE with Connection:
# close; exit status 0, no sooner than the delay. Passes or fails as LABEL.
#   lame_duck_check LABEL ROUTE
lame_duck_check() {
    local label=$1 route=$2 before during live served sigterm elapsed closes=no
    local url=http://127.0.0.1:$port
    code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url$1" || true; }
    before=$(code /health/ready)
    kill -TERM "$pid"
    sigterm=$(date +%s%N)
    sleep 0.3
    during=$(code /health/ready) live=$(code /health/live)
    served=$(curl -s -D "$work/headers.txt" -o /dev/null -w '%{http_code}' --max-time 5 "$url$route" || true)
    wait_server
    elapsed=$((($(date +%s%N) - sigterm) / 1000000))
    grep -qi "^connection: close" "$work/headers.txt" && closes=yes
    echo "/health/ready $before before SIGTERM; during the delay: /health/ready $during, /health/live $live, $route $served (Connection: close: $closes); exit status $status, $elapsed ms after SIGTERM"
    if [ "$before" = 200 ] && [ "$during" = 503 ] && [ "$live" = 200 ] && [ "$served" = 200 ] && [ "$closes" = yes ] && [ "$status" = 0 ] && [ "$elapsed" -ge 1500 ]; then
        pass "$label lame duck: ready 200, then 503 at once while $route still serves, with Connection: close, for 1.5 s, exit 0"
    else
        fail "$label lame duck: ready $before then $during, live $live, $route $served (Connection: close: $closes), exit status $status after $elapsed ms"
    fi
}
