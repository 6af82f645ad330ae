// A record written with APP_MODULE whose .after pointer leads to address
// 16, which no image maps: reading it with strlen would crash.
#include <app_module.h>

APP_MODULE(Corrupt, .after = (const char *)16);
