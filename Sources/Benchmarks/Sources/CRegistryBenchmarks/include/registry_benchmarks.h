/* The C side of the benchmarks: the limits and baselines discovery is
 * compared with. */
#ifndef REGISTRY_BENCHMARKS_H
#define REGISTRY_BENCHMARKS_H

#include <stddef.h>

/* The limit for discovery + map: walks this image's app_modules section in
 * C, keeps the module records, and maps each name to its factory in an
 * open-addressing hash table. Returns the number of modules mapped. */
size_t raw_walk_and_map(void);

/* One walk of every loaded image's notes, as discovery starts with, with a
 * visitor that does nothing; returns how many images the dynamic linker
 * listed. */
size_t walk_loaded_image_notes(void);

#endif
