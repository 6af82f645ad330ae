#include <stdint.h>

/* A C struct larger than two registers: returned through memory, like a
 * handle, so a factory returning it writes where the handle would be. */
typedef struct receipt {
    uint64_t number;
    uint64_t total;
    uint64_t items;
    uint64_t paid;
    uint64_t shipped;
} receipt;
