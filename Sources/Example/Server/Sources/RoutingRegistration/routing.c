#include <app_module.h>

APP_MODULE(Routing, .level = APP_MODULE_LEVEL_CORE);
