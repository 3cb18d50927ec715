#define _GNU_SOURCE /* dlopen's RTLD_ flags */
#define PLOT_CAIRO_LOADER
#include "cairo_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define PLOT_CAIRO_LIB "libcairo.so.2" /* the soname the -dev package links against */

struct plot_cairo_calls plot_cairo;
static char load_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *lib = dlopen(PLOT_CAIRO_LIB, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "cannot load %s: %s", PLOT_CAIRO_LIB, dlerror());
        return;
    }
    /* dlsym's data pointer copied into a function pointer: POSIX's own way (see its dlsym). */
#define PLOT_CAIRO_BIND(name)                                                                      \
    if (!load_error[0] && !(*(void **)&plot_cairo.name = dlsym(lib, #name)))                       \
        snprintf(load_error, sizeof load_error, "%s: no %s", PLOT_CAIRO_LIB, #name);
    PLOT_CAIRO_CALLS(PLOT_CAIRO_BIND)
#undef PLOT_CAIRO_BIND
}

int plot_cairo_load(char *err, size_t errlen)
{
    pthread_once(&once, load);
    if (!load_error[0])
        return 0;
    snprintf(err, errlen, "%s", load_error);
    return -1;
}
