#include <dlfcn.h>
#include <stdlib.h>

#include <app_module.h>

/* Cart's factory, as a program gets it when the real one lives in a library
 * with its own copy of SectionRegistry (FOREIGN_CART_LIBRARY). */
app_module_handle app_module_Cart(void) {
    void *library = dlopen(getenv("FOREIGN_CART_LIBRARY"), RTLD_NOW);
    if (library == NULL) abort();
    app_module_factory make = (app_module_factory)dlsym(library, "make_foreign_cart");
    if (make == NULL) abort();
    return make();
}
