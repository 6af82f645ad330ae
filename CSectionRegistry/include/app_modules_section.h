/*
 * app_modules_section.h: where the records of each loaded image are, for the
 * Swift reader.
 */
#ifndef SECTION_REGISTRY_APP_MODULES_SECTION_H
#define SECTION_REGISTRY_APP_MODULES_SECTION_H

#include <stddef.h>
#include <stdint.h>

#include "app_module.h"

/* The bounds of one image's `app_modules` section and the address of its
 * anchor record, which must lie between them. */
typedef struct app_modules_section {
    const app_module_record *APP_MODULE_NONNULL start;
    const app_module_record *APP_MODULE_NONNULL stop;
    const app_module_record *APP_MODULE_NONNULL anchor;
} app_modules_section;

/* The section of the image this function is linked into. Hidden: it is for
 * C code of that image (the benchmarks, tests); readers find every image's
 * section through its note (app_modules_visit_loaded_images). */
__attribute__((visibility("hidden"))) app_modules_section app_modules_section_in_this_image(void);

/* One loaded image that carries the SectionRegistry note. */
typedef struct app_modules_image {
    /* The file the dynamic linker loaded, as dl_iterate_phdr names it; ""
     * for the program itself. */
    const char *APP_MODULE_NONNULL name;
    /* Where the image is mapped: its addresses are this much above the
     * ones its file states (dlpi_addr; link_map's l_addr). */
    uintptr_t load_bias;
    /* The section the image's first note resolves to. */
    app_modules_section section;
    /* How many of the image's notes resolve to another section, or have a
     * descriptor of another size (never, in a well-formed image). */
    uint32_t conflicting_notes;
    /* The descriptor size of the first note that is not
     * APP_MODULE_NOTE_DESCRIPTOR_SIZE bytes, or 0; `section` is then all
     * null if no note had the right size. */
    uint32_t unknown_descriptor_size;
    /* Whether one of the image's loadable segments holds the `probe`
     * address given to app_modules_visit_loaded_images. */
    _Bool holds_probe;
    /* The image's program headers (ElfW(Phdr), mapped with the image), for
     * app_modules_readable_segments: a reader checks the note's bounds and
     * each record's pointers against them before it reads through them. */
    const void *APP_MODULE_NONNULL program_headers;
    uint16_t program_header_count;
} app_modules_image;

/* One readable loaded segment of an image: the addresses [start, end). */
typedef struct app_modules_segment {
    uintptr_t start;
    uintptr_t end;
} app_modules_segment;

/* Writes the readable PT_LOAD segments of `image` (PF_R set, non-empty in
 * memory) to `segments`, at most `capacity` of them, as addresses of this
 * process; returns how many there are. */
size_t app_modules_readable_segments(const app_modules_image *APP_MODULE_NONNULL image,
                                     app_modules_segment *APP_MODULE_NULLABLE segments, size_t capacity);

typedef void (*app_modules_image_visitor)(const app_modules_image *APP_MODULE_NONNULL image,
                                          void *APP_MODULE_NULLABLE context);

/* Calls `visitor` once for every loaded image that carries at least one
 * SectionRegistry note, in the dynamic linker's order (the program first),
 * while the dynamic linker's lock is held: the visitor must not load or
 * unload libraries. Walks every PT_NOTE segment of every image, each with
 * its own alignment. Returns how many images the dynamic linker listed. */
size_t app_modules_visit_loaded_images(const void *APP_MODULE_NULLABLE probe,
                                       app_modules_image_visitor APP_MODULE_NONNULL visitor,
                                       void *APP_MODULE_NULLABLE context);

/* The load bias of the image a dlopen handle stands for (see
 * app_modules_image.load_bias), or 0 if dlinfo cannot tell. */
uintptr_t app_modules_load_bias_of(void *APP_MODULE_NONNULL handle);

/* The load address of the image that holds `address`, and its file name
 * (or NULL), as dladdr(3) tells; NULL if no image holds it. For Swift, to
 * which glibc's dladdr is not exported. */
const void *APP_MODULE_NULLABLE app_modules_image_of(const void *APP_MODULE_NONNULL address,
                                                    const char *APP_MODULE_NULLABLE *APP_MODULE_NONNULL file);

#endif /* SECTION_REGISTRY_APP_MODULES_SECTION_H */
