#include <app_module.h>

APP_MODULE(Digest, .after = "Reports");
