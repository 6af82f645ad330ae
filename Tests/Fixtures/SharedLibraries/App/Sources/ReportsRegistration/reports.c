#include <app_module.h>

APP_MODULE(Reports, .after = "Charts,Pricing");
