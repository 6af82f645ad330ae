#include <app_module.h>

/* Registered as HTTP, as the HTTP module is: vapor-execute-server links this
 * one in its place. */
APP_MODULE(HTTP, .level = APP_MODULE_LEVEL_LATE, .after = "Routes");
