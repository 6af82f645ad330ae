#include "app_modules_section.h"

/* The anchor: a reserved-kind (all zero) record that readers skip. Being in
 * the section, it makes the section, and with it the linker-defined bounds,
 * exist in every image that links this file, with or without modules. The
 * bounds are therefore declared strong: a missing section is a link error,
 * never a silent empty registry. Hidden, so every image has its own; every
 * object file with an APP_MODULE line refers to it from its note. Its name
 * (APP_MODULE_ANCHOR) is what a link without this file reports missing. */
__attribute__((visibility("hidden"))) APP_MODULE_IN_SECTION const app_module_record APP_MODULE_ANCHOR = {0};

/* The anchor reference of records written from Swift (app_module.h): hidden,
 * like the anchor, so that only an image that links this file resolves it. */
void attribute_modules_depend_on_SectionRegistryRecords(void) {}

/* Hidden: each image has bounds of its own, and the linker's default
 * (protected) visibility misbehaves across images. */
extern const app_module_record __start_app_modules[] __attribute__((visibility("hidden")));
extern const app_module_record __stop_app_modules[] __attribute__((visibility("hidden")));

/* The image's note, so that an image without modules is found too. */
__asm__(APP_MODULE_NOTE_ASSEMBLY);

app_modules_section app_modules_section_in_this_image(void) {
    return (app_modules_section){
        .start = __start_app_modules,
        .stop = __stop_app_modules,
        .anchor = &APP_MODULE_ANCHOR,
    };
}
