#include <app_module.h>

APP_MODULE(Search, .priority = 10, .flags = APP_MODULE_CONCURRENT_START);
