#include <app_module.h>

APP_MODULE(Greetings, .level = APP_MODULE_LEVEL_FEATURE, .after = "Routes");
