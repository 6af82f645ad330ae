#define _GNU_SOURCE
#include <link.h>
#include <string.h>

#include "app_modules_section.h"

struct walk {
    const void *probe;
    app_modules_image_visitor visitor;
    void *context;
    size_t images;
};

static uintptr_t align_up(uintptr_t value, uintptr_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

/* The address `*offset` bytes from the offset itself, as `.long X - .` wrote. */
static const app_module_record *resolve(const int32_t *offset) {
    return (const app_module_record *)((const char *)offset + *offset);
}

/* Reads the SectionRegistry notes of one PT_NOTE segment into `image`.
 * Entries are padded to the segment's alignment: 4, or 8 for segments of
 * 8-byte notes such as .note.gnu.property. */
static void read_notes(const char *segment, size_t size, size_t alignment, app_modules_image *image, int *found) {
    const uintptr_t pad = alignment == 8 ? 8 : 4;
    const char *end = segment + size;
    const char *entry = segment;
    while ((size_t)(end - entry) >= sizeof(ElfW(Nhdr))) {
        const ElfW(Nhdr) *header = (const ElfW(Nhdr) *)entry;
        const char *name = entry + sizeof *header;
        /* The segment starts aligned: the name and the descriptor each end
         * padded to the next aligned address. */
        if (header->n_namesz > (size_t)(end - name)) return;
        const char *descriptor = (const char *)align_up((uintptr_t)(name + header->n_namesz), pad);
        if (descriptor > end || header->n_descsz > (size_t)(end - descriptor)) return;
        const char *next = (const char *)align_up((uintptr_t)(descriptor + header->n_descsz), pad);
        if (header->n_type == APP_MODULE_NOTE_TYPE && header->n_namesz == APP_MODULE_NOTE_OWNER_SIZE &&
            memcmp(name, APP_MODULE_NOTE_OWNER, APP_MODULE_NOTE_OWNER_SIZE) == 0) {
            if (header->n_descsz != APP_MODULE_NOTE_DESCRIPTOR_SIZE) {
                if (image->unknown_descriptor_size == 0) image->unknown_descriptor_size = header->n_descsz;
                else image->conflicting_notes++;
            } else {
                const int32_t *offsets = (const int32_t *)descriptor;
                app_modules_section section = {resolve(&offsets[0]), resolve(&offsets[1]), resolve(&offsets[2])};
                if (!*found) {
                    image->section = section;
                    *found = 1;
                } else if (section.start != image->section.start || section.stop != image->section.stop ||
                           section.anchor != image->section.anchor) {
                    image->conflicting_notes++;
                }
            }
        }
        if ((size_t)(end - entry) <= (size_t)(next - entry)) return;
        entry = next;
    }
}

static int visit_image(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct walk *walk = data;
    walk->images++;
    app_modules_image image = {
        .name = info->dlpi_name ? info->dlpi_name : "",
        .load_bias = info->dlpi_addr,
        .program_headers = info->dlpi_phdr,
        .program_header_count = info->dlpi_phnum,
    };
    int found = 0;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        const char *address = (const char *)(info->dlpi_addr + header->p_vaddr);
        const char *probe = walk->probe;
        if (header->p_type == PT_LOAD && probe >= address && probe < address + header->p_memsz) {
            image.holds_probe = 1;
        }
        if (header->p_type == PT_NOTE) read_notes(address, header->p_memsz, header->p_align, &image, &found);
    }
    if (found || image.unknown_descriptor_size != 0) walk->visitor(&image, walk->context);
    return 0;
}

size_t app_modules_visit_loaded_images(const void *probe, app_modules_image_visitor visitor, void *context) {
    struct walk walk = {probe, visitor, context, 0};
    dl_iterate_phdr(visit_image, &walk);
    return walk.images;
}

size_t app_modules_readable_segments(const app_modules_image *image, app_modules_segment *segments, size_t capacity) {
    const ElfW(Phdr) *headers = image->program_headers;
    size_t count = 0;
    for (uint16_t index = 0; index < image->program_header_count; index++) {
        const ElfW(Phdr) *header = &headers[index];
        if (header->p_type != PT_LOAD || !(header->p_flags & PF_R) || header->p_memsz == 0) continue;
        if (count < capacity) {
            uintptr_t start = image->load_bias + header->p_vaddr;
            segments[count] = (app_modules_segment){start, start + header->p_memsz};
        }
        count++;
    }
    return count;
}
