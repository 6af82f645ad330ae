#include <app_module.h>

APP_MODULE(Jobs, .level = APP_MODULE_LEVEL_FEATURE, .after = "Routes");
