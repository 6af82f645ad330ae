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

app_modules_section app_modules_section_in_this_image(void);

#endif /* SECTION_REGISTRY_APP_MODULES_SECTION_H */
