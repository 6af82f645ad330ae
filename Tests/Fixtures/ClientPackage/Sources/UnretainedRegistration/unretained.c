#include <app_module.h>

/* What APP_MODULE writes with a compiler that lacks __attribute__((retain)):
 * the record is `used` but a --gc-sections linker may still discard it. */
#undef APP_MODULE_RETAIN
#define APP_MODULE_RETAIN

APP_MODULE(Unretained);
