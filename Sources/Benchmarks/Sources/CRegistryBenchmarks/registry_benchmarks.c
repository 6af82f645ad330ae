#include "registry_benchmarks.h"

#include <app_modules_section.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    const char *name;
    app_module_factory factory;
};

static uint64_t fnv1a(const char *name) {
    uint64_t hash = 1469598103934665603u;
    for (; *name; name++) hash = (hash ^ (unsigned char)*name) * 1099511628211u;
    return hash;
}

size_t raw_walk_and_map(void) {
    app_modules_section section = app_modules_section_in_this_image();
    size_t records = (size_t)(section.stop - section.start);
    size_t capacity = 16;
    while (capacity < records * 2) capacity *= 2;
    struct slot *table = calloc(capacity, sizeof *table);
    size_t mapped = 0;
    for (const app_module_record *record = section.start; record < section.stop; record++) {
        if (record->kind != APP_MODULE_KIND_MODULE || record->factory == NULL) continue;
        size_t index = fnv1a(record->name) & (capacity - 1);
        while (table[index].name && strcmp(table[index].name, record->name) != 0) index = (index + 1) & (capacity - 1);
        if (!table[index].name) mapped++;
        table[index] = (struct slot){ record->name, record->factory };
    }
    free(table);
    return mapped;
}

static void ignore_image(const app_modules_image *image, void *context) {
    (void)image;
    (void)context;
}

size_t walk_loaded_image_notes(void) {
    return app_modules_visit_loaded_images(NULL, ignore_image, NULL);
}
