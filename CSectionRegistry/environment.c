#define _GNU_SOURCE
#include <stdlib.h>

#include "app_modules_environment.h"

const char *app_modules_secure_getenv(const char *name) {
    return secure_getenv(name);
}
