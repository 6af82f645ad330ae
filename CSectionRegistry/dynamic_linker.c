#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>

#include "app_modules_section.h"

const void *app_modules_image_of(const void *address, const char **file) {
    Dl_info info;
    if (dladdr(address, &info) == 0) {
        *file = NULL;
        return NULL;
    }
    *file = info.dli_fname;
    return info.dli_fbase;
}

uintptr_t app_modules_load_bias_of(void *handle) {
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return 0;
    return map->l_addr;
}
