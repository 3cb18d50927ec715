/* The files a platform names: SimGrid reads them as it loads the platform (profiles of a host's
 * speed or state, of a link's bandwidth, latency or state, a <trace>'s values), so they are
 * inputs of every result as much as the platform itself: the digest's key, the results cache's
 * key and the up-front check all see them. The attributes are those of SimGrid 3.32's parser
 * (its DTD has no other attribute that names a file; <include> was removed in 3.18 and SimGrid
 * refuses it itself). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/infile.h"
#include "platform.h"
#include "platform_xml.h"

static const char *const file_attrs[] = {"speed_file",     "state_file",   "availability_file",
                                         "bandwidth_file", "latency_file", NULL};

/* Where SimGrid finds a named file (surf_ifsopen): an absolute path as is; a relative one in the
 * current directory first, then in the platform's directory. */
static void resolve(const char *platform, const char *name, char *out, size_t len)
{
    if (name[0] == '/' || access(name, R_OK) == 0) {
        snprintf(out, len, "%s", name);
        return;
    }
    const char *slash = strrchr(platform, '/');
    if (!slash)
        snprintf(out, len, "./%s", name);
    else
        snprintf(out, len, "%.*s/%s", (int)(slash - platform), platform, name);
}

int platform_each_file(const char *platform, platform_file_fn fn, void *ud, bool *traced)
{
    if (traced)
        *traced = false;
    static const char *const named[] = {"file", "trace", NULL}; /* *_file="", <trace> */
    if (!platform_xml_may_name(platform, named))
        return 0; /* most platforms: no parse, no libxml2 loaded */
    char why[256];
    const struct platform_xml *x = platform_xml(why, sizeof why);
    if (!x) /* libxml2 is a dependency of the package: a broken installation */
        return -1;
    xmlTextReaderPtr r = platform_xml_open(x, platform);
    int rc = 0;
    while (r && rc == 0 && x->read(r) == 1) {
        if (x->node_type(r) != XML_READER_TYPE_ELEMENT)
            continue;
        const xmlChar *tag = x->local_name(r);
        bool trace = !strcmp((const char *)tag, "trace");
        if (trace && traced) /* with a file or with its values inline */
            *traced = true;
        char owner[160] = "";
        while (rc == 0 && x->move_to_next_attribute(r) == 1) {
            const xmlChar *attr = x->local_name(r);
            const char *known = trace && !strcmp((const char *)attr, "file") ? "file" : NULL;
            for (int k = 0; file_attrs[k] && !known; k++)
                if (!strcmp((const char *)attr, file_attrs[k]))
                    known = file_attrs[k];
            /* Values only of the attributes that name files: another's may be an entity bomb
             * (tests/bad: quadratic-blowup), which SimGrid's parser refuses with its reason. */
            const char *name = known ? (const char *)x->value(r) : NULL;
            if (!name || !name[0])
                continue;
            if (!owner[0]) {
                const xmlChar *id = NULL;
                if (x->move_to_attribute(r, (const xmlChar *)"id") == 1)
                    id = x->value(r);
                snprintf(owner, sizeof owner, "%s%s%.100s", (const char *)tag, id ? " " : "",
                         id ? (const char *)id : "");
                x->move_to_attribute(r, (const xmlChar *)known); /* back where it was */
                name = (const char *)x->value(r);
            }
            if (traced)
                *traced = true;
            char path[4096];
            resolve(platform, name, path, sizeof path);
            struct platform_file f = {.path = path, .name = name, .attr = known, .owner = owner};
            rc = fn(&f, ud);
        }
    }
    if (r)
        x->free_reader(r);
    return rc;
}

/* Readable as SimGrid will read it: a regular file that opens. */
static int check_one(const struct platform_file *f, void *ud)
{
    struct {
        const char *platform;
        char *err;
        size_t len;
    } *c = ud;
    char why[INFILE_ERR_MAX];
    if (infile_check(f->path, f->attr, 0, why, sizeof why) == 0)
        return 0;
    snprintf(c->err, c->len, "%s: %s's %s '%s' cannot be read (%s)", c->platform, f->owner, f->attr,
             f->name, why);
    return -1;
}

int platform_files_check(const char *platform, bool *traced, char *err, size_t errlen)
{
    struct {
        const char *platform;
        char *err;
        size_t len;
    } c = {platform, err, errlen};
    return platform_each_file(platform, check_one, &c, traced);
}
