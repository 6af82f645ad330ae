#!/usr/bin/env bash
# make-fuzz-seeds.sh: remakes the committed seed corpus of scripts/fuzz.sh
# from real binaries: a small shared object with five module records, one
# with text slots as @AppModule writes it (and the anchor), linked by gold, lld and bfd, and the raw app_modules
# sections cut out of them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fuzz/Corpus
work=$(mktemp -d)
mkdir -p "$out/ELF" "$out/Records"
cat >"$work/seed.c" <<'C'
#include <app_module.h>
#define FACTORY(NAME) app_module_handle app_module_##NAME(void) { return (app_module_handle){ .instance = (void *)1 }; }
FACTORY(Store) FACTORY(Accounts) FACTORY(Billing) FACTORY(Audit)
APP_MODULE(Store, .level = APP_MODULE_LEVEL_CORE);
APP_MODULE(Accounts, .level = APP_MODULE_LEVEL_SERVICE, .after = "Store");
APP_MODULE(Billing, .priority = 5, .after = "Accounts, Store", .flags = APP_MODULE_CONCURRENT_START);
APP_MODULE(Audit, .level = APP_MODULE_LEVEL_LATE, .after = "Billing");
/* A record as @AppModule writes it from Swift: its texts in slots after it. */
FACTORY(Ledger)
APP_MODULE_RECORD_ATTRIBUTES const struct { app_module_record record; app_module_text_slot after, source_file; } ledger = {
    { .kind = APP_MODULE_KIND_MODULE, .version = APP_MODULE_ABI_VERSION, .size = 3 * APP_MODULE_RECORD_SIZE,
      .level = APP_MODULE_LEVEL_FEATURE, .factory = app_module_Ledger, .name = "Ledger",
      .reserved1 = { (uint64_t)(uintptr_t)attribute_modules_depend_on_SectionRegistryRecords } },
    { .kind = APP_MODULE_KIND_TEXT, .field = APP_MODULE_TEXT_AFTER, .text = "Billing" },
    { .kind = APP_MODULE_KIND_TEXT, .field = APP_MODULE_TEXT_SOURCE_FILE, .text = "Ledger/Ledger.swift" },
};
C
for linker in gold lld bfd; do
    clang -shared -fPIC -nostdlib -O1 -fuse-ld="$linker" -I CSectionRegistry/include \
        "$work/seed.c" CSectionRegistry/app_modules_section.c -o "$out/ELF/modules-$linker.so"
    objcopy -O binary --only-section=app_modules "$out/ELF/modules-$linker.so" "$out/Records/section-$linker.bin"
done
rm -rf "$work"
ls -l "$out"/*/
