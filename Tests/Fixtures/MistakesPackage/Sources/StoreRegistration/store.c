#include <app_module.h>

APP_MODULE(Store);
/* "Stroe": a typo for Store, which is linked. */
APP_MODULE(Orders, .after = "Stroe");
