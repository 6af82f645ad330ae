#include <app_module.h>

APP_MODULE(HTTP, .level = APP_MODULE_LEVEL_LATE, .after = "Routes");
