/*
 * app_module.h: the module record ABI and the APP_MODULE annotation.
 *
 * A feature registers itself by linking one line of C:
 *
 *     #include <app_module.h>
 *     APP_MODULE(Billing);
 *     APP_MODULE(Audit, .level = APP_MODULE_LEVEL_LATE, .priority = 10, .after = "Billing");
 *
 * and defining, in its Swift target, the factory the macro names:
 *
 *     @c(app_module_Billing) func makeBilling() -> AppModuleHandle { AppModuleHandle(Billing()) }
 *
 * Each line writes one fixed-layout record into the ELF section `app_modules`,
 * and each file with such lines one ELF note that leads a reader to the
 * section of the image it is linked into.
 * The layout is version 2 of the record ABI, written down in RecordABI.md
 * beside this header; change neither without the other.
 *
 * Portable C11 for Clang and GCC. Not usable from C++ (designated initializers).
 */
#ifndef SECTION_REGISTRY_APP_MODULE_H
#define SECTION_REGISTRY_APP_MODULE_H

#include <stdint.h>

/* Records live in an ELF section, found through the linker's
 * __start_/__stop_ symbols and the program headers: Mach-O (macOS, iOS)
 * and COFF (Windows) have neither in this form. Said here, once, rather
 * than by the compiler's own error about a section name. */
#if !defined(__ELF__)
#  error "SectionRegistry builds for ELF platforms only (Linux): its records live in the ELF section app_modules. See the README, 'Where it runs'."
#endif

#if defined(__has_feature)
#  if __has_feature(nullability)
#    define APP_MODULE_NONNULL _Nonnull
#    define APP_MODULE_NULLABLE _Nullable
#  endif
#endif
#ifndef APP_MODULE_NONNULL
#  define APP_MODULE_NONNULL
#  define APP_MODULE_NULLABLE
#endif

/* ---- The record ABI, version 2 ------------------------------------------ */

/* The section every record lives in (a C identifier, so the linker defines
 * __start_app_modules and __stop_app_modules). */
#define APP_MODULE_SECTION "app_modules"

/* kind: 0 is reserved (padding, the anchor); a reader skips kinds it does not
 * know. The module kind has no printable byte, so `readelf -p app_modules`
 * prints module names and nothing of the header around them. */
#define APP_MODULE_KIND_RESERVED 0u
#define APP_MODULE_KIND_MODULE 0xA5A50001u
/* A text slot: the .after list or the source file of the module record
 * before it, inline, for records written from Swift (@AppModule), which can
 * hold no pointer to a string. On its own, a kind readers skip. */
#define APP_MODULE_KIND_TEXT 0xA5A50002u

#define APP_MODULE_ABI_VERSION 2
#define APP_MODULE_RECORD_SIZE 128
#define APP_MODULE_RECORD_ALIGNMENT 16
/* Bytes for the name, its terminating NUL included: names of up to 63 bytes. */
#define APP_MODULE_NAME_CAPACITY 64

/* Flags. */
/* The module may start concurrently with the modules of its level that it
 * does not depend on (and that do not depend on it). */
#define APP_MODULE_CONCURRENT_START 0x1u
/* The module cannot be disabled from outside the program: naming it in
 * SECTION_REGISTRY_DISABLE (or in the host's configuration) fails the launch
 * rather than turning it off. For modules that guard the others (an
 * authentication module, an audit trail). A reader that predates the flag
 * refuses the record as having unknown flags: it never runs the program
 * without the module's protection. */
#define APP_MODULE_REQUIRED 0x2u
#define APP_MODULE_KNOWN_FLAGS (APP_MODULE_CONCURRENT_START | APP_MODULE_REQUIRED)

/* Launch tiers, in the spirit of the kernel's initcall levels: every module
 * of a lower level comes before any module of a higher one. */
#define APP_MODULE_LEVEL_CORE 1
#define APP_MODULE_LEVEL_SERVICE 2
#define APP_MODULE_LEVEL_FEATURE 3
#define APP_MODULE_LEVEL_LATE 4

/* What a factory returns: one new, type-erased Swift module, with the
 * proof that SectionRegistry's `AppModuleHandle(_:)` made it. The macro's
 * extern declaration cannot check the type of the Swift function it names,
 * so a factory of another type links; the reader calls it into zeroed
 * memory (app_module_call.h) and checks the three words before it touches
 * `instance`. 32 bytes: more than two registers, so x86-64 and aarch64
 * return it through memory the caller provides (RecordABI.md, "The factory"). */
#define APP_MODULE_HANDLE_MAGIC 0x454C444E48444F4DULL /* "MODHNDLE" */

typedef struct app_module_handle {
    uint64_t magic;          /* APP_MODULE_HANDLE_MAGIC */
    uint32_t version;        /* APP_MODULE_ABI_VERSION */
    uint32_t reserved;       /* 0 */
    /* The SectionRegistry copy that made it: the address of a private
     * class's metadata, which no other copy shares. */
    const void *APP_MODULE_NULLABLE maker;
    void *APP_MODULE_NULLABLE instance;
} app_module_handle;

_Static_assert(sizeof(app_module_handle) == 32,
               "a handle is returned in memory: larger than two registers (RecordABI.md)");

typedef app_module_handle (*app_module_factory)(void);

typedef struct __attribute__((aligned(APP_MODULE_RECORD_ALIGNMENT))) app_module_record {
    uint32_t kind;          /* APP_MODULE_KIND_MODULE */
    uint16_t version;       /* APP_MODULE_ABI_VERSION */
    uint16_t size;          /* APP_MODULE_RECORD_SIZE */
    uint32_t flags;         /* APP_MODULE_CONCURRENT_START | APP_MODULE_REQUIRED, or 0 */
    uint8_t level;          /* APP_MODULE_LEVEL_* */
    uint8_t reserved0;      /* must be 0 */
    int16_t priority;       /* within a level, higher comes first; default 0 */
    app_module_factory APP_MODULE_NULLABLE factory;
    /* Names of the modules this one comes after, separated by commas
     * ("Accounts,Database"), or NULL. */
    const char *APP_MODULE_NULLABLE after;
    /* The file that holds the APP_MODULE line, for diagnostics, or NULL. */
    const char *APP_MODULE_NULLABLE source_file;
    uint64_t reserved1[3];  /* must be 0 */
    char name[APP_MODULE_NAME_CAPACITY]; /* NUL-terminated UTF-8 */
} app_module_record;

_Static_assert(sizeof(app_module_record) == APP_MODULE_RECORD_SIZE,
               "app_module_record must be APP_MODULE_RECORD_SIZE bytes");
_Static_assert(_Alignof(app_module_record) == APP_MODULE_RECORD_ALIGNMENT,
               "app_module_record must have APP_MODULE_RECORD_ALIGNMENT");
_Static_assert(APP_MODULE_RECORD_SIZE % APP_MODULE_RECORD_ALIGNMENT == 0,
               "records must follow each other without padding");
_Static_assert(__builtin_offsetof(app_module_record, name) == 64,
               "the name starts at byte 64 of a record (RecordABI.md)");

/* ---- Text slots ---------------------------------------------------------- */

/* A record written from Swift carries its texts in the slots that follow it
 * (RecordABI.md, "Texts inline"): its `size` is 128 for each slot, its own
 * included, and its `after` and `source_file` pointers are NULL. */
#define APP_MODULE_TEXT_AFTER 1
#define APP_MODULE_TEXT_SOURCE_FILE 2
/* Bytes for a text, its terminating NUL included. */
#define APP_MODULE_TEXT_CAPACITY 120
/* A record and a slot for each of its two texts. */
#define APP_MODULE_MAX_RECORD_SIZE (3 * APP_MODULE_RECORD_SIZE)

typedef struct __attribute__((aligned(APP_MODULE_RECORD_ALIGNMENT))) app_module_text_slot {
    uint32_t kind;          /* APP_MODULE_KIND_TEXT */
    uint8_t field;          /* APP_MODULE_TEXT_AFTER or APP_MODULE_TEXT_SOURCE_FILE */
    uint8_t reserved[3];    /* must be 0 */
    char text[APP_MODULE_TEXT_CAPACITY]; /* NUL-terminated UTF-8 */
} app_module_text_slot;

_Static_assert(sizeof(app_module_text_slot) == APP_MODULE_RECORD_SIZE,
               "a text slot is one record slot");
_Static_assert(__builtin_offsetof(app_module_text_slot, text) == 8,
               "a slot's text starts at byte 8 (RecordABI.md)");

/* What a record written from Swift points at in its `reserved1[0]`: defined,
 * hidden, beside the anchor, so that an image with such a record and no
 * CSectionRegistry of its own (no note, no anchor) fails the link, and the
 * linker's "undefined reference" names the fix. */
__attribute__((visibility("hidden"))) void attribute_modules_depend_on_SectionRegistryRecords(void);

/* ---- The image note ------------------------------------------------------ */

/* Every image (executable or shared object) that holds a record or links the
 * anchor carries an allocated ELF note, which the linker puts in a PT_NOTE
 * segment: program headers are mapped at run time, section headers are not,
 * so this is how a reader finds each loaded image's section with
 * dl_iterate_phdr and no code before main. Its descriptor holds the image's
 * __start_app_modules, __stop_app_modules and anchor as 32-bit offsets from
 * the field itself: resolved by the static linker, so the note needs no
 * dynamic relocation and stays read-only. RecordABI.md, "The image note". */
#define APP_MODULE_NOTE_OWNER "SectionRegistry"
#define APP_MODULE_NOTE_OWNER_SIZE 16 /* with its NUL */
#define APP_MODULE_NOTE_TYPE 0x53520001 /* "SR", bounds, layout 1 */
#define APP_MODULE_NOTE_DESCRIPTOR_SIZE 12

#define APP_MODULE_STRING_(x) #x
#define APP_MODULE_STRING(x) APP_MODULE_STRING_(x)

/* The note, in assembly: C cannot write the difference of two addresses in
 * an initializer. `R` (SHF_GNU_RETAIN) keeps it through --gc-sections; it is
 * in no COMDAT group, which bfd and lld would drop. `.ifndef` emits it once
 * per object file however many APP_MODULE lines there are; the reader
 * de-duplicates the notes of one image by the range they resolve to. The
 * anchor reference pulls the anchor's object out of a static archive, or
 * fails the link loudly when CSectionRegistry is not linked at all. */
/* The anchor's symbol. The linker names it in that failure ("undefined
 * reference to ..."), so its name is the fix: a registration target gets
 * CSectionRegistry from the SectionRegistryRecords product (a target that
 * depends on SectionRegistryDynamic instead finds the anchor hidden inside
 * that library, which is no anchor of its own image). */
#define APP_MODULE_ANCHOR registration_targets_depend_on_SectionRegistryRecords
#define APP_MODULE_NOTE_ASSEMBLY                                                        \
    ".ifndef .Lapp_modules_note\n"                                                      \
    ".set .Lapp_modules_note, 1\n"                                                      \
    ".hidden __start_app_modules\n"                                                     \
    ".hidden __stop_app_modules\n"                                                      \
    ".hidden " APP_MODULE_STRING(APP_MODULE_ANCHOR) "\n"                                \
    ".pushsection .note.app_modules,\"aR\",@note\n"                                     \
    ".balign 4\n"                                                                       \
    ".long " APP_MODULE_STRING(APP_MODULE_NOTE_OWNER_SIZE) ", "                          \
    APP_MODULE_STRING(APP_MODULE_NOTE_DESCRIPTOR_SIZE) ", "                             \
    APP_MODULE_STRING(APP_MODULE_NOTE_TYPE) "\n"                                        \
    ".asciz \"" APP_MODULE_NOTE_OWNER "\"\n"                                              \
    ".long __start_app_modules - .\n"                                                   \
    ".long __stop_app_modules - .\n"                                                    \
    ".long " APP_MODULE_STRING(APP_MODULE_ANCHOR) " - .\n"                              \
    ".popsection\n"                                                                     \
    ".endif\n"

/* ---- The annotation ------------------------------------------------------ */

/* `used` keeps a record from the compiler; `retain` (SHF_GNU_RETAIN) keeps it
 * from the linker's --gc-sections. Older compilers lack `retain`; gold and
 * bfd still keep sections that __start_/__stop_ name, lld may not. */
#if defined(__has_attribute)
#  if __has_attribute(retain)
#    define APP_MODULE_RETAIN __attribute__((retain))
#  endif
#endif
#ifndef APP_MODULE_RETAIN
#  define APP_MODULE_RETAIN
#endif

/* What puts an object in the section and keeps it there. */
#define APP_MODULE_IN_SECTION                                                           \
    __attribute__((used, section(APP_MODULE_SECTION), aligned(APP_MODULE_RECORD_ALIGNMENT))) \
    APP_MODULE_RETAIN

/* A record: in the section, and hidden, so records stay with their image. */
#define APP_MODULE_RECORD_ATTRIBUTES APP_MODULE_IN_SECTION __attribute__((visibility("hidden")))

/* The options of APP_MODULE are designated initializers that override the
 * defaults; say so to the compiler instead of warning. */
#if defined(__clang__)
#  define APP_MODULE_OPTIONS_BEGIN                                                      \
    _Pragma("clang diagnostic push")                                                    \
    _Pragma("clang diagnostic ignored \"-Winitializer-overrides\"")
#  define APP_MODULE_OPTIONS_END _Pragma("clang diagnostic pop")
#elif defined(__GNUC__)
#  define APP_MODULE_OPTIONS_BEGIN                                                      \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#  define APP_MODULE_OPTIONS_END _Pragma("GCC diagnostic pop")
#else
#  define APP_MODULE_OPTIONS_BEGIN
#  define APP_MODULE_OPTIONS_END
#endif

#if defined(__FILE_NAME__)
#  define APP_MODULE_SOURCE_FILE __FILE_NAME__
#else
#  define APP_MODULE_SOURCE_FILE __FILE__
#endif

/* The name must be a C identifier of ASCII letters, digits and `_`: the
 * macro pastes it into `app_module_NAME`. The preprocessor cannot test a
 * token, so the first line of APP_MODULE states the rule as well as each
 * compiler allows. Clang folds the characters of #NAME into an enumerator
 * (named by __COUNTER__, so that the failing assertion prints its name
 * rather than the whole expression) and a _Static_assert says the rule. GCC
 * does not fold string characters, so there the first error points into a
 * declaration whose name says it. */
#define APP_MODULE_IDENTIFIER_CHAR(c)                                                   \
    (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9') || (c) == '_')
#define APP_MODULE_IDENTIFIER_AT(s, i) (sizeof(s) <= (i) + 1 || APP_MODULE_IDENTIFIER_CHAR((s)[(i) < sizeof(s) ? (i) : 0]))
#define APP_MODULE_IDENTIFIER_8(s, i)                                                   \
    (APP_MODULE_IDENTIFIER_AT(s, i) && APP_MODULE_IDENTIFIER_AT(s, i + 1) &&            \
     APP_MODULE_IDENTIFIER_AT(s, i + 2) && APP_MODULE_IDENTIFIER_AT(s, i + 3) &&        \
     APP_MODULE_IDENTIFIER_AT(s, i + 4) && APP_MODULE_IDENTIFIER_AT(s, i + 5) &&        \
     APP_MODULE_IDENTIFIER_AT(s, i + 6) && APP_MODULE_IDENTIFIER_AT(s, i + 7))
/* Checks the first APP_MODULE_NAME_CAPACITY bytes; a longer name fails the
 * length assertion anyway. */
#define APP_MODULE_IS_IDENTIFIER(s)                                                     \
    (sizeof(s) > 1 && APP_MODULE_IDENTIFIER_8(s, 0) && APP_MODULE_IDENTIFIER_8(s, 8) &&  \
     APP_MODULE_IDENTIFIER_8(s, 16) && APP_MODULE_IDENTIFIER_8(s, 24) &&                \
     APP_MODULE_IDENTIFIER_8(s, 32) && APP_MODULE_IDENTIFIER_8(s, 40) &&                \
     APP_MODULE_IDENTIFIER_8(s, 48) && APP_MODULE_IDENTIFIER_8(s, 56))
#define APP_MODULE_PASTE_(a, b) a##b
#define APP_MODULE_PASTE(a, b) APP_MODULE_PASTE_(a, b)
#if defined(__clang__)
#  define APP_MODULE_CHECK_NAME(NAME)                                                   \
    APP_MODULE_CHECK_NAME_AS(NAME, APP_MODULE_PASTE(app_module_name_is_a_C_identifier_, __COUNTER__))
#  define APP_MODULE_CHECK_NAME_AS(NAME, VERDICT)                                       \
    _Pragma("clang diagnostic push")                                                    \
    _Pragma("clang diagnostic ignored \"-Wgnu-folding-constant\"")                      \
    enum { VERDICT = APP_MODULE_IS_IDENTIFIER(#NAME) };                                 \
    _Pragma("clang diagnostic pop")                                                     \
    _Static_assert(VERDICT, "APP_MODULE(" #NAME "): a module name must be a C identifier: ASCII letters, digits and _")
#else
#  define APP_MODULE_CHECK_NAME(NAME) struct APP_MODULE_name_must_be_a_C_identifier__##NAME
#endif

/*
 * APP_MODULE(NAME, options...): registers module NAME, a C identifier of at
 * most 63 bytes (ASCII letters, digits and `_`; `Check-out` or a quoted
 * "Checkout" is a compile error that says so). Its factory is the function
 * `app_module_NAME`, which the module's Swift target defines with
 * `@c(app_module_NAME)`; without it the link fails with "undefined reference
 * to `app_module_NAME'". A definition of another type links (the linker
 * matches names only) and is refused when first called (RecordABI.md).
 * Registering NAME twice in one image fails the link too
 * (`app_module_record_NAME`).
 *
 * Options, all optional, as designated initializers:
 *   .level    = APP_MODULE_LEVEL_CORE | _SERVICE | _FEATURE (default) | _LATE
 *   .priority = an int16_t; within a level, higher comes first (default 0)
 *   .after    = "A,B": the modules this one comes after
 *   .flags    = APP_MODULE_CONCURRENT_START: may start alongside the modules
 *               of its level it has no dependency with;
 *               APP_MODULE_REQUIRED: may not be disabled from outside the
 *               program; combine both with `|`
 */
#define APP_MODULE(NAME, ...)                                                           \
    APP_MODULE_CHECK_NAME(NAME);                                                        \
    __asm__(APP_MODULE_NOTE_ASSEMBLY);                                                  \
    _Static_assert(sizeof(#NAME) <= APP_MODULE_NAME_CAPACITY,                          \
                   "module name " #NAME " is longer than 63 bytes");                  \
    extern app_module_handle app_module_##NAME(void);                                   \
    APP_MODULE_OPTIONS_BEGIN                                                            \
    APP_MODULE_RECORD_ATTRIBUTES const app_module_record app_module_record_##NAME = {   \
        .kind = APP_MODULE_KIND_MODULE,                                                 \
        .version = APP_MODULE_ABI_VERSION,                                              \
        .size = APP_MODULE_RECORD_SIZE,                                                 \
        .level = APP_MODULE_LEVEL_FEATURE,                                              \
        .factory = app_module_##NAME,                                                   \
        .source_file = APP_MODULE_SOURCE_FILE,                                          \
        .name = #NAME,                                                                  \
        __VA_ARGS__                                                                     \
    };                                                                                  \
    APP_MODULE_OPTIONS_END                                                              \
    extern const app_module_record app_module_record_##NAME /* takes the caller's ';' */

#endif /* SECTION_REGISTRY_APP_MODULE_H */
