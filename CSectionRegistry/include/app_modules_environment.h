/*
 * app_modules_environment.h: the host's environment variables, read the way
 * a privileged process must read them.
 */
#ifndef SECTION_REGISTRY_APP_MODULES_ENVIRONMENT_H
#define SECTION_REGISTRY_APP_MODULES_ENVIRONMENT_H

#include "app_module.h"

/* The value of the environment variable `name`, as glibc's secure_getenv(3)
 * gives it: NULL in a process that runs with privileges its invoker does not
 * have (set-user-ID, set-group-ID, file capabilities: AT_SECURE), whatever
 * the environment holds, so that whoever starts such a program cannot steer
 * it. For Swift, to which glibc's secure_getenv is not exported (it needs
 * _GNU_SOURCE). */
const char *APP_MODULE_NULLABLE app_modules_secure_getenv(const char *APP_MODULE_NONNULL name);

#endif /* SECTION_REGISTRY_APP_MODULES_ENVIRONMENT_H */
