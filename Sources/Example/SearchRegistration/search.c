#include <app_module.h>

APP_MODULE(Search, .priority = 10);
