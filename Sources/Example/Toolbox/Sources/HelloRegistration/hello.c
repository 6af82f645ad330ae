#include <app_module.h>

APP_MODULE(Hello);
