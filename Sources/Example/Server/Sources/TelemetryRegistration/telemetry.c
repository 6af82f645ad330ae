#include <app_module.h>

APP_MODULE(Telemetry, .level = APP_MODULE_LEVEL_FEATURE, .after = "Routing");
