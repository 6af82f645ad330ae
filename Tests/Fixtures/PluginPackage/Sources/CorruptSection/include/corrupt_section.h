// The section of a corrupt image: one reserved slot, so that the bounds
// exist, and a SectionRegistry note whose descriptor is SIZE bytes,
// DESCRIPTOR (the assembly of its fields). No CSectionRegistry: its own note would be a
// well-formed second one.
#define CORRUPT_SECTION(SIZE, DESCRIPTOR)                                                      \
    __attribute__((used, retain, section("app_modules"), aligned(16), visibility("hidden"))) \
    const char corrupt_anchor[128] = {0};                                                  \
    __asm__(".hidden __start_app_modules\n.hidden __stop_app_modules\n.hidden corrupt_anchor\n" \
            ".pushsection .note.app_modules,\"aR\",@note\n.balign 4\n"                    \
            ".long 16, " #SIZE ", 0x53520001\n.asciz \"SectionRegistry\"\n" DESCRIPTOR ".popsection\n")
