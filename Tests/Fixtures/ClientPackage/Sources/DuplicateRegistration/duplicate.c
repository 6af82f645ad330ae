#include <app_module.h>

/* Greeter again, from a second target: the link must fail, naming it. */
APP_MODULE(Greeter);
