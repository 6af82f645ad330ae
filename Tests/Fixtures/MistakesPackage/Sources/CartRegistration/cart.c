#include <app_module.h>

/* The record is right; the Swift function each program defines is not. */
APP_MODULE(Cart);
