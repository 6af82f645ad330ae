#include <app_module.h>

APP_MODULE(Routes, .level = APP_MODULE_LEVEL_CORE);
