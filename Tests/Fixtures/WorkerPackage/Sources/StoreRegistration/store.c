#include <app_module.h>

APP_MODULE(Store, .level = APP_MODULE_LEVEL_SERVICE);
