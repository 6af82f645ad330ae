#include <app_module.h>

/* Payments is linked nowhere. */
APP_MODULE(Shop, .after = "Payments");
