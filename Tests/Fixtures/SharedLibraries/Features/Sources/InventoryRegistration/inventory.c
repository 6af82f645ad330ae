#include <app_module.h>

APP_MODULE(Inventory, .after = "Gateway");
