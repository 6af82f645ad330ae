#include <app_module.h>

APP_MODULE(Clock, .level = APP_MODULE_LEVEL_CORE);
