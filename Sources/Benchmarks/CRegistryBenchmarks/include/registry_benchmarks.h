/* The C side of the benchmarks: the limits and baselines discovery is
 * compared with. */
#ifndef REGISTRY_BENCHMARKS_H
#define REGISTRY_BENCHMARKS_H

#include <stddef.h>

/* Registration by constructors before main, as Rust's inventory does: each
 * constructor pushes a static node onto one list. */
struct inventory_node {
    const char *name;
    void *(*make)(void);
    struct inventory_node *next;
};

void inventory_submit(struct inventory_node *node);

/* The limit for discovery + map: walks this image's app_modules section in
 * C, keeps the module records, and maps each name to its factory in an
 * open-addressing hash table. Returns the number of modules mapped. */
size_t raw_walk_and_map(void);

#endif
