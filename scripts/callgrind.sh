# Sourced, not run: `instructions PROGRAM ARGS...` prints the instructions
# valgrind's callgrind counted in one run of PROGRAM (its output discarded),
# and median, spread and short format the counts, for scripts/instructions.sh
# and scripts/toolbox-test.sh. Needs $work, a
# folder of the caller's; CALLGRIND_OPTIONS adds options to callgrind.
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
# Callgrind does not count the kernel (exec, page faults): whole-process
# times and counts differ by that.

for tool in valgrind objcopy cc; do
    command -v "$tool" >/dev/null || { echo "callgrind.sh: needs $tool" >&2; exit 1; }
done
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

instructions() {
    local program=$1 log
    shift
    local copy=$work/$(basename "$program")
    [[ -x $copy ]] || objcopy --strip-debug "$program" "$copy"
    log=$(LD_PRELOAD="$work/shim.so" LD_LIBRARY_PATH="$(dirname "$program")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        valgrind --tool=callgrind ${CALLGRIND_OPTIONS:-} --callgrind-out-file="$work/$(basename "$program").%p.callgrind" \
        "$copy" "$@" 2>&1 >/dev/null) || {
        echo "callgrind.sh: $program $* failed under callgrind:" >&2
        grep -v '^###' <<<"$log" | tail -20 >&2
        return 1
    }
    grep -E '^==[0-9]+== Collected : [0-9]+' <<<"$log" | awk '{ print $NF }'
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "%.2f%%", (max - min) * 100 / min }'; }
# 13071234 -> "13.07 M", 12700 -> "12.7 k"
short() { awk -v v="$1" 'BEGIN { if (v >= 1e6) printf "%.2f M", v / 1e6; else if (v >= 1e3) printf "%.1f k", v / 1e3; else printf "%d", v }'; }
