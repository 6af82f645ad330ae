#include <app_module.h>

APP_MODULE(Gateway, .level = APP_MODULE_LEVEL_CORE);
