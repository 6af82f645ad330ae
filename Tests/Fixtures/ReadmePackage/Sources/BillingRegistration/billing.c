#include <app_module.h>

APP_MODULE(Billing, .level = APP_MODULE_LEVEL_SERVICE, .priority = 10, .after = "Accounts");
