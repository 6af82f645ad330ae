// An image whose only SectionRegistry note has a 16-byte descriptor: a
// layout this reader does not know, with no usable bounds.
#include "corrupt_section.h"

CORRUPT_SECTION(16, ".long __start_app_modules - .\n.long __stop_app_modules - .\n.long corrupt_anchor - .\n.long 0\n");
