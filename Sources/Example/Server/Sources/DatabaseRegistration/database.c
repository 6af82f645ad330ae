#include <app_module.h>

APP_MODULE(Database, .level = APP_MODULE_LEVEL_SERVICE);
