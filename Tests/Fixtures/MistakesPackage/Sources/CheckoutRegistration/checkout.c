#include <app_module.h>

/* Nothing depends on this target: Checkout forgot it. */
APP_MODULE(Checkout);
