#include <app_module.h>

APP_MODULE(Charts, .level = APP_MODULE_LEVEL_SERVICE);
