/*
 * app_module_call.h: calling a record's factory so that a function of another
 * type is caught, not trusted.
 */
#ifndef SECTION_REGISTRY_APP_MODULE_CALL_H
#define SECTION_REGISTRY_APP_MODULE_CALL_H

#include "app_module.h"

/* Bytes of zeroed memory the factory returns into: a handle, and room for
 * a wrong factory that returns a larger struct through memory too. */
#define APP_MODULE_CALL_LANDING_ZONE 256

/* Calls `factory` with the address of zeroed memory as its hidden return
 * pointer and copies the first handle-sized bytes to `result`. A function
 * that returns in registers or returns nothing leaves zeros, which no handle
 * is (RecordABI.md, "The factory"). */
void app_modules_call_factory(app_module_factory APP_MODULE_NONNULL factory,
                             app_module_handle *APP_MODULE_NONNULL result);

#endif /* SECTION_REGISTRY_APP_MODULE_CALL_H */
