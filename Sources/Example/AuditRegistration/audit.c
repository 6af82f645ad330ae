#include <app_module.h>

APP_MODULE(Audit, .level = APP_MODULE_LEVEL_LATE, .after = "Accounts, Billing");
