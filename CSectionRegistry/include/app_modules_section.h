/*
 * app_modules_section.h: where this image's records are, for the Swift reader.
 */
#ifndef SECTION_REGISTRY_APP_MODULES_SECTION_H
#define SECTION_REGISTRY_APP_MODULES_SECTION_H

#include "app_module.h"

/* The bounds of this image's `app_modules` section and the address of the
 * reader's anchor record, which must lie between them. */
typedef struct app_modules_section {
    const app_module_record *APP_MODULE_NONNULL start;
    const app_module_record *APP_MODULE_NONNULL stop;
    const app_module_record *APP_MODULE_NONNULL anchor;
} app_modules_section;

/* Each image has its own copy of this function. Plugins are searched for it
 * by this name with dlsym on their handle (PluginLibrary.swift): keep both. */
app_modules_section app_modules_section_in_this_image(void);

/* The load address of the image that holds `address`, and its file name
 * (or NULL), as dladdr(3) tells; NULL if no image holds it. For Swift, to
 * which glibc's dladdr is not exported. */
const void *APP_MODULE_NULLABLE app_modules_image_of(const void *APP_MODULE_NONNULL address,
                                                    const char *APP_MODULE_NULLABLE *APP_MODULE_NONNULL file);

#endif /* SECTION_REGISTRY_APP_MODULES_SECTION_H */
