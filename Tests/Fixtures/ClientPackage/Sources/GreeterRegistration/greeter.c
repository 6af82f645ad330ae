#include <app_module.h>

APP_MODULE(Greeter, .level = APP_MODULE_LEVEL_SERVICE);
