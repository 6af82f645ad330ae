#include "app_module_call.h"

/* The return pointer is passed by hand, as each ABI passes it, so that the
 * factory receives the zeroed zone itself. Calling through the factory's own
 * type would let the compiler pass a temporary whose bytes are whatever the
 * stack held, such as the previous factory's handle. */
static void call_into(app_module_factory factory, void *zone) {
#if defined(__x86_64__)
    /* SysV x86-64: the caller passes the address in %rdi "as if it were the
     * first argument", and the callee writes through it. The pointer is
     * copied, not cast, so that no compiler warns about the change of type. */
    void (*with_explicit_result)(void *);
    __builtin_memcpy(&with_explicit_result, &factory, sizeof with_explicit_result);
    with_explicit_result(zone);
#elif defined(__aarch64__)
    /* AAPCS64: the address goes in x8, which no C parameter uses. */
    register void *indirect_result __asm__("x8") = zone;
    __asm__ volatile("blr %[factory]"
                     : "+r"(indirect_result)
                     : [factory] "r"(factory)
                     : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x9", "x10", "x11",
                       "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x30", "v0", "v1",
                       "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20",
                       "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
                       "v31", "cc", "memory");
#else
#  error "app_modules_call_factory knows how x86-64 and aarch64 return structs in memory; add this architecture's rule"
#endif
}

void app_modules_call_factory(app_module_factory factory, app_module_handle *result) {
    /* The zone's address escapes into the call, so the compiler must zero it
     * before; a wrong factory that writes a larger struct stays inside it. */
    _Alignas(16) unsigned char zone[APP_MODULE_CALL_LANDING_ZONE];
    __builtin_memset(zone, 0, sizeof zone);
    call_into(factory, zone);
    __builtin_memcpy(result, zone, sizeof *result);
}
