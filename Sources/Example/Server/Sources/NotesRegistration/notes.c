#include <app_module.h>

APP_MODULE(Notes, .level = APP_MODULE_LEVEL_FEATURE, .after = "Database, Routing");
