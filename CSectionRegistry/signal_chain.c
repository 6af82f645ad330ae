#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "app_modules_signals.h"

/* Per signal number: the handler's address, and whether it takes siginfo.
 * Atomics, not a lock: the signal handler reads them. */
static _Atomic(uintptr_t) chained_handlers[65];
static atomic_bool chained_takes_info[65];

void app_modules_chain_handler(int signal_number, const struct sigaction *action) {
    if (signal_number < 1 || signal_number > 64) return;
    int takes_info = (action->sa_flags & SA_SIGINFO) != 0;
    uintptr_t handler = takes_info ? (uintptr_t)action->sa_sigaction : (uintptr_t)action->sa_handler;
    if (!takes_info && (action->sa_handler == SIG_DFL || action->sa_handler == SIG_IGN)) handler = 0;
    atomic_store(&chained_takes_info[signal_number], takes_info);
    atomic_store(&chained_handlers[signal_number], handler);
}

void app_modules_call_chained_handler(int signal_number) {
    if (signal_number < 1 || signal_number > 64) return;
    uintptr_t handler = atomic_load(&chained_handlers[signal_number]);
    if (handler == 0) return;
    if (atomic_load(&chained_takes_info[signal_number])) {
        /* The host's handler takes no siginfo: the signal's number, as sent
         * by a user. */
        siginfo_t info;
        memset(&info, 0, sizeof info);
        info.si_signo = signal_number;
        info.si_code = SI_USER;
        ((void (*)(int, siginfo_t *, void *))handler)(signal_number, &info, 0);
    } else {
        ((void (*)(int))handler)(signal_number);
    }
}

void app_modules_unchain_handlers(void) {
    for (int signal_number = 1; signal_number <= 64; signal_number++) {
        atomic_store(&chained_handlers[signal_number], 0);
    }
}
