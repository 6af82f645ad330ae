/*
 * app_modules_signals.h: a signal handler another library installed over
 * the host's, kept and called after the host's own, so that both hear the
 * signal.
 */
#ifndef SECTION_REGISTRY_APP_MODULES_SIGNALS_H
#define SECTION_REGISTRY_APP_MODULES_SIGNALS_H

#include <signal.h>

#include "app_module.h"

/* Keeps `action`'s handler for `signal_number` (1 to 64), to be called by
 * app_modules_call_chained_handler. SIG_DFL and SIG_IGN are not kept: the
 * default action of SIGTERM would end the process before the host drains. */
void app_modules_chain_handler(int signal_number, const struct sigaction *APP_MODULE_NONNULL action);

/* Calls the handler kept for `signal_number`, if any. Async-signal-safe:
 * the host's signal handler calls it. */
void app_modules_call_chained_handler(int signal_number);

/* Forgets every handler kept. */
void app_modules_unchain_handlers(void);

#endif /* SECTION_REGISTRY_APP_MODULES_SIGNALS_H */
