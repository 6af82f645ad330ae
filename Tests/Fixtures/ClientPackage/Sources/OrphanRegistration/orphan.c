#include <app_module.h>

/* No Swift target defines @c(app_module_Orphan): the link must fail. */
APP_MODULE(Orphan);
