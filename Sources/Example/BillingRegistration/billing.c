#include <app_module.h>

APP_MODULE(Billing, .after = "Accounts", .flags = APP_MODULE_CONCURRENT_START);
