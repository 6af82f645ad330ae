#include <app_module.h>

APP_MODULE(Billing, .after = "Accounts");
