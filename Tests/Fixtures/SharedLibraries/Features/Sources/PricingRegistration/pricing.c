#include <app_module.h>

APP_MODULE(Pricing, .after = "Inventory");
