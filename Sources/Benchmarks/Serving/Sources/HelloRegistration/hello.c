#include <app_module.h>

APP_MODULE(Hello, .level = APP_MODULE_LEVEL_LATE);
