#define _GNU_SOURCE /* dlopen's RTLD_ flags */
#include "platform_xml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

#define PLATFORM_XML_LIB "libxml2.so.2" /* the soname the -dev package links against */

static struct platform_xml table;
static char load_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* ISO C forbids converting a data pointer (dlsym's) to a function pointer; POSIX requires that
 * it works, and this copy is how its own example does it. */
static int xml_bind(void *lib, const char *name, void *fn_slot)
{
    void *sym = dlsym(lib, name);
    if (!sym) {
        snprintf(load_error, sizeof load_error, "%s: no %s", PLATFORM_XML_LIB, name);
        return -1;
    }
    *(void **)fn_slot = sym;
    return 0;
}

static void load(void)
{
    void *lib = dlopen(PLATFORM_XML_LIB, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "cannot load %s: %s", PLATFORM_XML_LIB, dlerror());
        return;
    }
    struct platform_xml *t = &table;
    if (xml_bind(lib, "xmlReaderForFile", &t->reader_for_file) < 0 ||
        xml_bind(lib, "xmlTextReaderRead", &t->read) < 0 ||
        xml_bind(lib, "xmlTextReaderNodeType", &t->node_type) < 0 ||
        xml_bind(lib, "xmlTextReaderConstLocalName", &t->local_name) < 0 ||
        xml_bind(lib, "xmlTextReaderConstValue", &t->value) < 0 ||
        xml_bind(lib, "xmlTextReaderMoveToAttribute", &t->move_to_attribute) < 0 ||
        xml_bind(lib, "xmlTextReaderMoveToNextAttribute", &t->move_to_next_attribute) < 0 ||
        xml_bind(lib, "xmlFreeTextReader", &t->free_reader) < 0)
        t->reader_for_file = NULL; /* the library stays loaded: the process's, as if linked */
}

const struct platform_xml *platform_xml(char *err, size_t errlen)
{
    pthread_once(&once, load);
    if (table.reader_for_file)
        return &table;
    snprintf(err, errlen, "%s", load_error);
    return NULL;
}

xmlTextReaderPtr platform_xml_open(const struct platform_xml *x, const char *path)
{
    return x->reader_for_file(path, NULL,
                              XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

bool platform_xml_may_name(const char *path, const char *const *words)
{
    struct platform_text t;
    char err[256];
    if (platform_read_text(path, &t, err, sizeof err) < 0)
        return true;
    bool may = false;
    for (int i = 0; words[i] && !may; i++)
        may = t.buf && memmem(t.buf, t.len, words[i], strlen(words[i]));
    free(t.buf);
    return may;
}
