#include <app_module.h>

/* The modules linked into the test binary: their factories are in
 * Tests/SectionRegistryTests/LinkedTestModules.swift. */
APP_MODULE(TestLate, .level = APP_MODULE_LEVEL_LATE);
APP_MODULE(TestCore, .level = APP_MODULE_LEVEL_CORE, .priority = -5, .flags = APP_MODULE_REQUIRED);
APP_MODULE(TestFeatureB, .after = "TestCore");
APP_MODULE(TestFeatureA, .after = "TestCore, TestLate");
APP_MODULE(TestFeatureFirst, .priority = 7, .flags = APP_MODULE_CONCURRENT_START);
