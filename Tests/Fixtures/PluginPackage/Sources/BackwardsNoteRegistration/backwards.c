// An image whose only SectionRegistry note gives __stop_app_modules where
// __start_app_modules belongs and the other way round: its bounds run
// backwards. Written by hand, as a corrupted or hostile file might be.
#include "corrupt_section.h"

CORRUPT_SECTION(12, ".long __stop_app_modules - .\n.long __start_app_modules - .\n.long corrupt_anchor - .\n");
