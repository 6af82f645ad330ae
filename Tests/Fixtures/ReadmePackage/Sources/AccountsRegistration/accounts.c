#include <app_module.h>

APP_MODULE(Accounts, .level = APP_MODULE_LEVEL_SERVICE);
