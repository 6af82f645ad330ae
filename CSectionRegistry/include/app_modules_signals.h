/*
 * app_modules_signals.h: what the host does when another library puts its
 * own handler over the host's, so that both hear each signal, once.
 */
#ifndef SECTION_REGISTRY_APP_MODULES_SIGNALS_H
#define SECTION_REGISTRY_APP_MODULES_SIGNALS_H

#include <signal.h>

#include "app_module.h"

/* Whether `action`'s handler lies in libdispatch: a Dispatch signal source's
 * (Vapor's app.execute(), a ServiceGroup's signals). Such a source reads its
 * signal from a signalfd, which takes a signal sent to the process before
 * any handler runs: that signal is heard through a source of one's own
 * (app_modules_listen_through_dispatch), never by a handler put back. */
int app_modules_handler_is_dispatchs(const struct sigaction *APP_MODULE_NONNULL action);

/* Calls `deliver(signal_number)` on a Dispatch thread for each
 * `signal_number` (1 to 64) the process gets, through a Dispatch signal
 * source of its own, until app_modules_stop_listening_through_dispatch.
 * libdispatch is looked up in the process (Swift's concurrency runtime
 * loads it), not linked. Returns 0, or -1 if it is not loaded. */
int app_modules_listen_through_dispatch(int signal_number, void (*APP_MODULE_NONNULL deliver)(int));

/* Cancels every source app_modules_listen_through_dispatch made. */
void app_modules_stop_listening_through_dispatch(void);

/* Keeps `action`'s handler for `signal_number` (1 to 64), to be called by
 * app_modules_call_chained_handler: a plain handler another library put
 * over the host's, which the host puts back. SIG_DFL and SIG_IGN are not
 * kept: the default action of SIGTERM would end the process before the
 * host drains. */
void app_modules_chain_handler(int signal_number, const struct sigaction *APP_MODULE_NONNULL action);

/* Calls the handler kept for `signal_number`, if any. Async-signal-safe:
 * the host's signal handler calls it. */
void app_modules_call_chained_handler(int signal_number);

/* Forgets every handler kept. */
void app_modules_unchain_handlers(void);

#endif /* SECTION_REGISTRY_APP_MODULES_SIGNALS_H */
