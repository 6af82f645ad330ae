#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "app_modules_signals.h"

/* Per signal number: a plain handler's address, and whether it takes
 * siginfo. Atomics, not a lock: the signal handler reads them. */
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

int app_modules_handler_is_dispatchs(const struct sigaction *action) {
    const void *handler = (action->sa_flags & SA_SIGINFO) ? (const void *)action->sa_sigaction : (const void *)action->sa_handler;
    if (handler == (const void *)SIG_DFL || handler == (const void *)SIG_IGN) return 0;
    Dl_info info;
    if (dladdr(handler, &info) == 0 || info.dli_fname == NULL) return 0;
    const char *name = strrchr(info.dli_fname, '/');
    name = name ? name + 1 : info.dli_fname;
    return strncmp(name, "libdispatch.so", strlen("libdispatch.so")) == 0;
}

/* libdispatch's C interface, as far as a signal source needs it. */
typedef void *(*source_create_t)(const void *type, uintptr_t handle, uintptr_t mask, void *queue);
typedef void (*source_handler_t)(void *source, void (*handler)(void *context));
typedef void *(*global_queue_t)(intptr_t priority, uintptr_t flags);
typedef void (*object_call_t)(void *object);
typedef void (*set_context_t)(void *object, void *context);

static void *dispatch_sources[65];
static void (*deliver_signal)(int);

static void source_fired(void *context) {
    deliver_signal((int)(intptr_t)context);
}

int app_modules_listen_through_dispatch(int signal_number, void (*deliver)(int)) {
    if (signal_number < 1 || signal_number > 64) return -1;
    if (dispatch_sources[signal_number] != NULL) return 0;
    source_create_t create = (source_create_t)dlsym(RTLD_DEFAULT, "dispatch_source_create");
    const void *type = dlsym(RTLD_DEFAULT, "_dispatch_source_type_signal");
    source_handler_t set_handler = (source_handler_t)dlsym(RTLD_DEFAULT, "dispatch_source_set_event_handler_f");
    global_queue_t global_queue = (global_queue_t)dlsym(RTLD_DEFAULT, "dispatch_get_global_queue");
    set_context_t set_context = (set_context_t)dlsym(RTLD_DEFAULT, "dispatch_set_context");
    object_call_t resume = (object_call_t)dlsym(RTLD_DEFAULT, "dispatch_resume");
    if (!create || !type || !set_handler || !global_queue || !set_context || !resume) return -1;
    deliver_signal = deliver;
    void *source = create(type, (uintptr_t)signal_number, 0, global_queue(0, 0));
    if (source == NULL) return -1;
    set_context(source, (void *)(intptr_t)signal_number);
    set_handler(source, source_fired);
    resume(source);
    dispatch_sources[signal_number] = source;
    return 0;
}

void app_modules_stop_listening_through_dispatch(void) {
    object_call_t cancel = (object_call_t)dlsym(RTLD_DEFAULT, "dispatch_source_cancel");
    object_call_t release = (object_call_t)dlsym(RTLD_DEFAULT, "dispatch_release");
    for (int signal_number = 1; signal_number <= 64; signal_number++) {
        void *source = dispatch_sources[signal_number];
        if (source == NULL || !cancel || !release) continue;
        cancel(source);
        release(source);
        dispatch_sources[signal_number] = NULL;
    }
}
