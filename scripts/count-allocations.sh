#!/usr/bin/env bash
# count-allocations.sh PROGRAM ARGS...
#
# Runs PROGRAM once with a preloaded counter of the C allocator's entry
# points and prints how many times each was called, on standard error's
# last line: "allocations malloc=M calloc=C realloc=R aligned=A". Every
# Swift object, closure context, array buffer and task-allocator slab is one
# of these. Run a program at two N and divide the difference by the
# difference in N for the allocations of one module (Sources/Benchmarks/
# History.md, "The drain job"). Needs cc.
set -euo pipefail
if (($# < 1)); then echo "usage: $0 PROGRAM ARGS..." >&2; exit 2; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/count-allocations.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/counter.c" <<'C'
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* glibc's own entry points, which the wrappers below forward to. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static atomic_long mallocs, callocs, reallocs, aligned;
void *malloc(size_t size) { atomic_fetch_add(&mallocs, 1); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { atomic_fetch_add(&callocs, 1); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { atomic_fetch_add(&reallocs, 1); return __libc_realloc(pointer, size); }
int posix_memalign(void **pointer, size_t alignment, size_t size) {
    atomic_fetch_add(&aligned, 1);
    *pointer = __libc_memalign(alignment, size);
    return *pointer ? 0 : 12;
}
void *aligned_alloc(size_t alignment, size_t size) { atomic_fetch_add(&aligned, 1); return __libc_memalign(alignment, size); }
__attribute__((destructor)) static void report(void) {
    char line[160];
    int length = snprintf(line, sizeof line, "allocations malloc=%ld calloc=%ld realloc=%ld aligned=%ld\n",
                          (long)mallocs, (long)callocs, (long)reallocs, (long)aligned);
    write(2, line, length);
}
C
cc -O2 -shared -fPIC -o "$work/counter.so" "$work/counter.c"
LD_PRELOAD="$work/counter.so" "$@" >/dev/null
