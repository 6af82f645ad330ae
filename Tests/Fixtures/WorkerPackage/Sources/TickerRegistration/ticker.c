#include <app_module.h>

APP_MODULE(Ticker, .after = "Store");
