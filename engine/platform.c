#include "platform.h"
#include "platform_internal.h"

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- the reader: what SimGrid 3.32's platform parser accepts, and the first cluster ---- */

enum { NAME_HOST = 1, NAME_ZONE = 2, NAME_ROUTER = 4 };

struct reader {
    const char *path;
    char *err;
    size_t errlen;
    struct platform *pf; /* receives the first <cluster> */
    bool have_cluster;
    long hosts;            /* in all clusters */
    xmlHashTablePtr names; /* host, zone and router names: NAME_* bits */
};

/* An attribute value or a name as a message may show it: at most 40 bytes (whole UTF-8
 * characters), control characters as '?'. */
static const char *shown(const xmlChar *text, char *buf, size_t len)
{
    size_t n = 0, max = len - 4 < 40 ? len - 4 : 40;
    const xmlChar *s = text ? text : (const xmlChar *)"";
    while (s[n] && n < max)
        n++;
    while (n > 0 && s[n] && (s[n] & 0xC0) == 0x80)
        n--; /* do not cut a character in two */
    for (size_t i = 0; i < n; i++)
        buf[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
    snprintf(buf + n, len - n, "%s", s[n] ? "..." : "");
    return buf;
}

/* Writes "path:line: message" into the error buffer; returns -1. */
__attribute__((format(printf, 3, 4))) static int fail(struct reader *r, xmlNode *at,
                                                      const char *fmt, ...)
{
    long line = 0;
    for (xmlNode *n = at; n && line <= 0; n = n->parent)
        line = n->type == XML_DOCUMENT_NODE ? 0 : xmlGetLineNo(n);
    int k = line > 0 ? snprintf(r->err, r->errlen, "%s:%ld: ", r->path, line)
                     : snprintf(r->err, r->errlen, "%s: ", r->path);
    if (k >= 0 && (size_t)k < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + k, r->errlen - k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool named(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !n->ns && !xmlStrcmp(n->name, (const xmlChar *)name);
}

/* The attribute `name` of n, or NULL (to be freed with xmlFree). */
static xmlChar *attribute(xmlNode *n, const char *name)
{
    return xmlHasNsProp(n, (const xmlChar *)name, NULL) ? xmlGetNoNsProp(n, (const xmlChar *)name)
                                                        : NULL;
}

/* SimGrid's parser knows each element's attributes and refuses any other, and requires some. */
static int check_attributes(struct reader *r, xmlNode *n, const char *const *allowed,
                            const char *const *required, const char *required_text)
{
    char a[64], b[64];
    if (n->nsDef)
        return fail(r, n, "<%s>: namespace declarations are not allowed in a SimGrid platform",
                    shown(n->name, a, sizeof a));
    for (xmlAttr *at = n->properties; at; at = at->next) {
        bool known = false;
        for (int i = 0; !at->ns && allowed[i]; i++)
            known = known || !xmlStrcmp(at->name, (const xmlChar *)allowed[i]);
        if (!known)
            return fail(r, n, "<%s>: unknown attribute '%s%s%s' (SimGrid 3.32 refuses it)",
                        shown(n->name, a, sizeof a),
                        at->ns && at->ns->prefix ? (const char *)at->ns->prefix : "",
                        at->ns && at->ns->prefix ? ":" : "", shown(at->name, b, sizeof b));
    }
    for (int i = 0; required[i]; i++)
        if (!xmlHasNsProp(n, (const xmlChar *)required[i], NULL))
            return fail(r, n, "<%s> has no '%s' attribute (SimGrid requires %s)",
                        shown(n->name, a, sizeof a), required[i], required_text);
    return 0;
}

/* What lies between elements: SimGrid accepts blanks, comments and processing instructions. */
static int check_between(struct reader *r, xmlNode *parent, xmlNode *n)
{
    char a[64], b[64];
    if (n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE)
        return 0;
    if (n->type == XML_TEXT_NODE) {
        for (const xmlChar *s = n->content; s && *s; s++)
            if (!platform_blank(*s))
                return fail(r, n,
                            "unexpected text in <%s>: SimGrid accepts only elements and blanks "
                            "there",
                            shown(parent->name, a, sizeof a));
        return 0;
    }
    if (n->type == XML_CDATA_SECTION_NODE)
        return fail(r, n, "a CDATA section in <%s>: SimGrid does not accept one",
                    shown(parent->name, a, sizeof a));
    if (n->type == XML_ENTITY_REF_NODE)
        return fail(r, n, "undefined entity '&%s;' (a platform file may use none)",
                    shown(n->name, b, sizeof b));
    return fail(r, n, "unexpected content in <%s>", shown(parent->name, a, sizeof a));
}

static int unsupported(struct reader *r, xmlNode *n)
{
    char a[64];
    return fail(r, n,
                "<%s%s%s> is not supported: a Situ platform is made of <zone> (or <AS>), "
                "<cluster> and <prop> elements",
                n->ns && n->ns->prefix ? (const char *)n->ns->prefix : "",
                n->ns && n->ns->prefix ? ":" : "", shown(n->name, a, sizeof a));
}

/* Enters `name` as a host, zone or router, as SimGrid does when it creates them: a host name
 * must be new among hosts, a zone or router name among all three. what: "zone", "cluster"
 * (a cluster is a zone), "router". */
static int enter_name(struct reader *r, xmlNode *at, const char *name, int kind, const char *what)
{
    char a[64];
    intptr_t have = (intptr_t)xmlHashLookup(r->names, (const xmlChar *)name);
    if (kind == NAME_HOST && (have & NAME_HOST))
        return fail(r, at, "host '%s' is defined twice (SimGrid refuses a second host of one name)",
                    shown((const xmlChar *)name, a, sizeof a));
    if (kind != NAME_HOST && have)
        return fail(r, at, "the %s name '%s' is already the name of a %s (SimGrid refuses it)",
                    what, shown((const xmlChar *)name, a, sizeof a),
                    have & NAME_ZONE   ? "zone"
                    : have & NAME_HOST ? "host"
                                       : "router");
    if (xmlHashUpdateEntry(r->names, (const xmlChar *)name, (void *)(have | kind), NULL) < 0) {
        snprintf(r->err, r->errlen, "%s: out of memory", r->path);
        return -1;
    }
    return 0;
}

/* One number of a radical. SimGrid reads it with std::stoi: blanks around it are fine. */
static const char *radical_number(const char *s, long *out)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (!((*s >= '0' && *s <= '9') || (*s == '+' && s[1] >= '0' && s[1] <= '9')))
        return NULL;
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    if (errno || *out > INT_MAX) /* stoi would throw out_of_range: SimGrid dies */
        return NULL;
    while (*end == ' ' || (*end >= '\t' && *end <= '\r'))
        end++;
    return end;
}

/* "1-4,6,9-11": comma-separated numbers or ascending ranges (SimGrid splits on ',' then '-'). */
static int parse_radical(const char *text, struct platform *pf)
{
    int cap = 64;
    pf->radicals = malloc(sizeof(int) * cap);
    if (!pf->radicals)
        return -1;
    const char *s = text;
    for (;;) {
        long a, b;
        if (!(s = radical_number(s, &a)))
            return -1;
        b = a;
        if (*s == '-' && !(s = radical_number(s + 1, &b)))
            return -1;
        /* SimGrid silently makes no host of "5-2": surely not what was meant */
        if (b < a || b - a + 1 + pf->hosts > PLATFORM_MAX_HOSTS)
            return -1;
        for (long k = a; k <= b; k++) {
            if (pf->hosts == cap) {
                cap *= 2;
                int *grown = realloc(pf->radicals, sizeof(int) * cap);
                if (!grown)
                    return -1;
                pf->radicals = grown;
            }
            pf->radicals[pf->hosts++] = (int)k;
        }
        if (!*s)
            return 0;
        if (*s++ != ',') /* ';', a second '-', letters: SimGrid refuses or misreads them */
            return -1;
    }
}

/* Reads quantity attribute `name`. An optional one absent or "" leaves *out alone (SimGrid's
 * default); a required one is there (check_attributes). minimum: 1 for "positive", 0 for
 * "non-negative". */
static int read_quantity(struct reader *r, xmlNode *n, const char *name, char kind, int minimum,
                         bool optional, double *out)
{
    xmlChar *v = attribute(n, name);
    if (!v || (optional && !*v)) {
        xmlFree(v);
        return 0;
    }
    double q = 0;
    int rc = platform_parse_unit((const char *)v, kind, &q);
    if (rc == 0 && minimum > 0 && q <= 0)
        rc = -1;
    if (rc == 0)
        *out = q;
    else {
        char a[64];
        fail(r, n, "<cluster %s=\"%s\">: expected a %s%s with a unit", name, shown(v, a, sizeof a),
             minimum > 0 ? "positive " : "",
             kind == 'b'   ? "bandwidth (e.g. 10Gbps)"
             : kind == 't' ? "time (e.g. 15us)"
                           : "speed (e.g. 1Gf)");
    }
    xmlFree(v);
    return rc;
}

/* speed="2Gf,1Gf,500Mf": SimGrid's pstates, the first one in force. Each trimmed of blanks. */
static int read_speed(struct reader *r, xmlNode *n, double *out)
{
    xmlChar *v = attribute(n, "speed");
    size_t len = strlen((const char *)v);
    char *copy = malloc(len + 1), *item = copy;
    int rc = copy ? 0 : -1;
    if (copy)
        memcpy(copy, v, len + 1);
    for (int i = 0; rc == 0; i++) {
        char *comma = strchr(item, ','), *end;
        if (comma)
            *comma = 0;
        while (*item == ' ' || (*item >= '\t' && *item <= '\r'))
            item++;
        end = item + strlen(item);
        while (end > item && (end[-1] == ' ' || (end[-1] >= '\t' && end[-1] <= '\r')))
            *--end = 0;
        double q;
        rc = platform_parse_unit(item, 'f', &q);
        if (rc == 0 && i == 0 && q <= 0)
            rc = -1;
        if (rc == 0 && i == 0)
            *out = q;
        if (!comma)
            break;
        item = comma + 1;
    }
    if (rc < 0) {
        char a[64];
        fail(r, n,
             "<cluster speed=\"%s\">: expected a positive speed (e.g. 1Gf) with a unit, or "
             "pstates (e.g. 2Gf,1Gf)",
             shown(v, a, sizeof a));
    }
    free(copy);
    xmlFree(v);
    return rc;
}

/* Attribute `name` must be one of `values` (SimGrid's DTD enumerates them); absent is fine. */
static int read_choice(struct reader *r, xmlNode *n, const char *name, const char *const *values,
                       const char *expected, int *index)
{
    xmlChar *v = attribute(n, name);
    if (!v)
        return 0;
    int rc = -1;
    for (int i = 0; values[i] && rc < 0; i++)
        if (!xmlStrcmp(v, (const xmlChar *)values[i])) {
            *index = i;
            rc = 0;
        }
    if (rc < 0) {
        char a[64];
        fail(r, n, "<cluster %s=\"%s\">: expected %s", name, shown(v, a, sizeof a), expected);
    }
    xmlFree(v);
    return rc;
}

static int read_text(xmlNode *node, const char *name, char *buf, size_t len)
{
    xmlChar *v = attribute(node, name);
    buf[0] = 0;
    if (!v)
        return -1;
    int rc = xmlStrlen(v) < (int)len ? 0 : -2; /* -1: absent, -2: too long */
    if (rc == 0)
        snprintf(buf, len, "%s", (const char *)v);
    xmlFree(v);
    return rc;
}

static int read_prop(struct reader *r, xmlNode *p)
{
    static const char *const attrs[] = {"id", "value", NULL};
    if (check_attributes(r, p, attrs, attrs, "id and value") < 0)
        return -1;
    for (xmlNode *n = p->children; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE)
            return fail(r, n, "<prop> must be empty");
        if (check_between(r, p, n) < 0)
            return -1;
    }
    return 0;
}

static const char *const cluster_attrs[] = {"id",
                                            "prefix",
                                            "suffix",
                                            "radical",
                                            "speed",
                                            "core",
                                            "bw",
                                            "lat",
                                            "sharing_policy",
                                            "topology",
                                            "topo_parameters",
                                            "bb_bw",
                                            "bb_lat",
                                            "bb_sharing_policy",
                                            "router_id",
                                            "limiter_link",
                                            "loopback_bw",
                                            "loopback_lat",
                                            NULL};
static const char *const cluster_required[] = {"id",    "prefix", "suffix", "radical",
                                               "speed", "bw",     "lat",    NULL};

/* Everything SimGrid reads of a <cluster>, checked as it checks it; the numbers into pf. */
static int read_cluster_values(struct reader *r, xmlNode *c, struct platform *pf)
{
    char a[64];
    /* Too long is refused rather than cut: host and link names would silently change. */
    if (read_text(c, "id", pf->cluster_id, sizeof pf->cluster_id) == -2 ||
        read_text(c, "prefix", pf->prefix, sizeof pf->prefix) == -2 ||
        read_text(c, "suffix", pf->suffix, sizeof pf->suffix) == -2)
        return fail(r, c, "<cluster> id, prefix and suffix must be shorter than %zu bytes",
                    sizeof pf->prefix);
    xmlChar *radical = attribute(c, "radical");
    int rc = parse_radical((const char *)radical, pf);
    if (rc < 0)
        fail(r, c,
             "<cluster radical=\"%s\">: expected numbers and ascending ranges like \"1-32\" or "
             "\"1-4,8\", separated by ',' (at most %d hosts)",
             shown(radical, a, sizeof a), PLATFORM_MAX_HOSTS);
    xmlFree(radical);
    if (rc < 0)
        return -1;

    pf->cores = 1;
    xmlChar *cv = attribute(c, "core");
    if (cv) {
        char *end;
        errno = 0;
        long ncores = strtol((const char *)cv, &end, 10);
        while (*end == ' ' || (*end >= '\t' && *end <= '\r'))
            end++;
        rc = end == (char *)cv || *end || errno || ncores < 1 || ncores > 4096 ? -1 : 0;
        if (rc < 0)
            fail(r, c, "<cluster core=\"%s\">: expected an integer in [1, 4096]",
                 shown(cv, a, sizeof a));
        pf->cores = (int)ncores;
        xmlFree(cv);
        if (rc < 0)
            return -1;
    }
    if (read_speed(r, c, &pf->speed) < 0 || read_quantity(r, c, "bw", 'b', 1, false, &pf->bw) < 0 ||
        read_quantity(r, c, "lat", 't', 0, false, &pf->lat) < 0 ||
        read_quantity(r, c, "loopback_bw", 'b', 0, true, &pf->loopback_bw) < 0 ||
        read_quantity(r, c, "loopback_lat", 't', 0, true, &pf->loopback_lat) < 0 ||
        read_quantity(r, c, "bb_bw", 'b', 0, true, &pf->backbone_bw) < 0 ||
        read_quantity(r, c, "bb_lat", 't', 0, true, &pf->backbone_lat) < 0)
        return -1;
    /* SimGrid builds a loopback (a backbone) as soon as its latency is positive, with the
     * bandwidth given or 0: the first message through it aborts the simulation. */
    if (pf->loopback_lat > 0 && pf->loopback_bw <= 0)
        return fail(r, c, "<cluster loopback_lat> needs a positive loopback_bw as well");
    if (pf->backbone_lat > 0 && pf->backbone_bw <= 0)
        return fail(r, c, "<cluster bb_lat> needs a positive bb_bw as well");
    if (pf->loopback_bw <= 0)
        pf->loopback_lat = 0;

    static const char *const policies[] = {"SPLITDUPLEX", "FULLDUPLEX", "SHARED", "FATPIPE", NULL};
    static const char *const bb_policies[] = {"SHARED", "FATPIPE", NULL};
    static const char *const topologies[] = {"FLAT", NULL};
    int policy = 0, ignored = 0;
    if (read_choice(r, c, "sharing_policy", policies, "SHARED, SPLITDUPLEX, FULLDUPLEX or FATPIPE",
                    &policy) < 0 ||
        read_choice(r, c, "bb_sharing_policy", bb_policies, "SHARED or FATPIPE", &ignored) < 0 ||
        read_choice(r, c, "topology", topologies,
                    "FLAT: Situ models a flat cluster (one switch), not TORUS, FAT_TREE or "
                    "DRAGONFLY",
                    &ignored) < 0)
        return -1;
    pf->split_duplex = policy <= 1; /* FULLDUPLEX is SimGrid's old name of SPLITDUPLEX */
    xmlChar *limiter = attribute(c, "limiter_link");
    bool has_limiter = limiter && *limiter;
    xmlFree(limiter);
    if (has_limiter)
        return fail(r, c,
                    "<cluster limiter_link> is not supported: Situ's model has no "
                    "per-node limiter link");
    return 0;
}

/* The names a cluster gives SimGrid: its zone, its hosts, its router (in that order). */
static int enter_cluster_names(struct reader *r, xmlNode *c, const struct platform *pf)
{
    xmlChar *id = attribute(c, "id"), *prefix = attribute(c, "prefix"),
            *suffix = attribute(c, "suffix"), *router = attribute(c, "router_id");
    size_t len =
        strlen((const char *)prefix) + strlen((const char *)suffix) + strlen((const char *)id) + 32;
    char *name = malloc(len);
    int rc = name ? enter_name(r, c, (const char *)id, NAME_ZONE, "cluster") : -1;
    for (int i = 0; rc == 0 && i < pf->hosts; i++) {
        snprintf(name, len, "%s%d%s", (const char *)prefix, pf->radicals[i], (const char *)suffix);
        rc = enter_name(r, c, name, NAME_HOST, "host");
    }
    if (rc == 0 && router && *router)
        rc = enter_name(r, c, (const char *)router, NAME_ROUTER, "router");
    else if (rc == 0) {
        snprintf(name, len, "%s%s_router%s", (const char *)prefix, (const char *)id,
                 (const char *)suffix);
        rc = enter_name(r, c, name, NAME_ROUTER, "router");
    }
    if (!name)
        snprintf(r->err, r->errlen, "%s: out of memory", r->path);
    free(name);
    xmlFree(id);
    xmlFree(prefix);
    xmlFree(suffix);
    xmlFree(router);
    return rc;
}

static int read_cluster(struct reader *r, xmlNode *c, bool in_first_zone)
{
    if (check_attributes(r, c, cluster_attrs, cluster_required,
                         "id, prefix, suffix, radical, speed, bw and lat") < 0)
        return -1;
    if (!in_first_zone) {
        char a[64];
        xmlChar *id = attribute(c, "id");
        fail(r, c,
             "<cluster id=\"%s\"> lies outside the platform's first zone: SimGrid cannot create "
             "its hosts there",
             shown(id, a, sizeof a));
        xmlFree(id);
        return -1;
    }
    for (xmlNode *n = c->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) {
            if (check_between(r, c, n) < 0)
                return -1;
        } else if (!named(n, "prop")) {
            char a[64];
            return fail(r, n, "<cluster> may contain only <prop> elements, not <%s>",
                        shown(n->name, a, sizeof a));
        } else if (read_prop(r, n) < 0) {
            return -1;
        }
    }
    struct platform other, *pf = r->have_cluster ? &other : r->pf;
    memset(pf, 0, sizeof *pf);
    int rc = read_cluster_values(r, c, pf);
    if (rc == 0 && (r->hosts += pf->hosts) > PLATFORM_MAX_HOSTS)
        rc = fail(r, c, "the platform's clusters have more than %d hosts in all",
                  PLATFORM_MAX_HOSTS);
    if (rc == 0)
        rc = enter_cluster_names(r, c, pf);
    if (pf == &other)
        platform_free(&other);
    r->have_cluster = true;
    return rc;
}

static int read_zone(struct reader *r, xmlNode *z, bool first_zone)
{
    static const char *const attrs[] = {"id", "routing", NULL};
    static const char *const routings[] = {"Full", "Floyd",   "Dijkstra", "DijkstraCache",
                                           "None", "Vivaldi", "Cluster",  "Wifi"};
    char a[64], b[64];
    if (check_attributes(r, z, attrs, attrs, "id and routing") < 0)
        return -1;
    xmlChar *routing = attribute(z, "routing");
    bool known = false;
    for (size_t i = 0; i < sizeof routings / sizeof *routings; i++)
        known = known || !strcasecmp((const char *)routing, routings[i]);
    if (!known)
        fail(r, z,
             "<%s routing=\"%s\">: expected Full, Floyd, Dijkstra, DijkstraCache, None, "
             "Vivaldi, Cluster or Wifi",
             shown(z->name, b, sizeof b), shown(routing, a, sizeof a));
    xmlFree(routing);
    if (!known)
        return -1;
    xmlChar *id = attribute(z, "id");
    int rc = enter_name(r, z, (const char *)id, NAME_ZONE, "zone");
    xmlFree(id);
    bool props_over = false;
    for (xmlNode *n = z->children; rc == 0 && n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            rc = check_between(r, z, n);
        else if (named(n, "prop") && props_over)
            rc = fail(r, n, "<prop> must come before the other elements of <%s>",
                      shown(z->name, a, sizeof a));
        else if (named(n, "prop"))
            rc = read_prop(r, n);
        else if (named(n, "zone") || named(n, "AS"))
            rc = read_zone(r, n, first_zone);
        else if (named(n, "cluster"))
            rc = read_cluster(r, n, first_zone);
        else
            rc = unsupported(r, n);
        props_over = props_over || (n->type == XML_ELEMENT_NODE && !named(n, "prop"));
    }
    return rc;
}

/* <platform version>: SimGrid 3.32 reads the formats 4 to 4.1 (it compares 100 * version,
 * rounded, with 400 and 410). */
static int read_version(struct reader *r, xmlNode *root)
{
    static const char *const attrs[] = {"version", NULL};
    if (check_attributes(r, root, attrs, attrs, "version=\"4.1\"") < 0)
        return -1;
    xmlChar *v = attribute(root, "version");
    char *end;
    errno = 0;
    double version = strtod((const char *)v, &end);
    while (platform_blank(*end))
        end++;
    int rc = end == (char *)v || *end || errno || !isfinite(version) ||
                     lround(100 * version) < 400 || lround(100 * version) > 410
                 ? -1
                 : 0;
    if (rc < 0) {
        char a[64];
        fail(r, root,
             "<platform version=\"%s\">: expected 4.1 (SimGrid 3.32 reads versions 4 "
             "to 4.1; simgrid_update_xml updates older files)",
             shown(v, a, sizeof a));
    }
    xmlFree(v);
    return rc;
}

static void silent_xml_errors(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* The whole file, NUL-terminated; NULL with err set. */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read platform file: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *grown = cap < PLATFORM_MAX_BYTES ? realloc(buf, 2 * cap + 1) : NULL;
        if (!grown) {
            snprintf(err, errlen, "%s: platform file is larger than %d MiB", path,
                     PLATFORM_MAX_BYTES >> 20);
            free(buf);
            fclose(f);
            return NULL;
        }
        buf = grown;
        cap *= 2;
    }
    if (!buf || ferror(f)) {
        snprintf(err, errlen, "%s: cannot read platform file: %s", path,
                 buf ? strerror(errno) : "out of memory");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

int platform_load(const char *path, struct platform *pf, char *err, size_t errlen)
{
    int rc = -1;
    xmlDoc *doc = NULL;
    char *text = NULL;
    size_t len = 0;
    struct reader r = {.path = path, .err = err, .errlen = errlen, .pf = pf};
    memset(pf, 0, sizeof *pf);

    struct stat st;
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "%s: cannot read platform file: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: platform is not a regular file", path);
        return -1;
    }
    if (!(text = read_file(path, &len, err, errlen)))
        return -1;
    xmlSetGenericErrorFunc(NULL, silent_xml_errors);
    /* No network, no entity expansion: a platform file is data, not a program. */
    doc = xmlReadMemory(text, (int)len, path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                            XML_PARSE_BIG_LINES);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        snprintf(err, errlen, "%s:%d: malformed platform XML: %s", path, e ? e->line : 0,
                 e && e->message ? e->message : "parse error");
        char *nl = strchr(err, '\n');
        if (nl)
            *nl = 0;
        goto out;
    }
    /* Entities are expanded when an attribute is read: 2000 references to a 100 kB entity take
     * minutes (and libxml2 only stops the exponential bombs). A platform file needs none. */
    xmlDtd *dtd = xmlGetIntSubset(doc);
    if (dtd && ((dtd->entities && xmlHashSize(dtd->entities) > 0) ||
                (dtd->pentities && xmlHashSize(dtd->pentities) > 0))) {
        snprintf(err, errlen, "%s: <!ENTITY> declarations are not supported in a platform file",
                 path);
        goto out;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !named(root, "platform")) {
        snprintf(err, errlen, "%s: expected a <platform> root element", path);
        goto out;
    }
    /* From here on, what SimGrid 3.32 refuses (or dies of) is refused here, at load, for every
     * subcommand: the prolog, the version, the elements and their attributes, the names. */
    if (platform_check_prolog(path, text, len, err, errlen) < 0 || read_version(&r, root) < 0)
        goto out;
    if (!(r.names = xmlHashCreate(0))) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    int top = 0;
    for (xmlNode *n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) {
            if (check_between(&r, root, n) < 0)
                goto out;
        } else if (named(n, "zone") || named(n, "AS")) {
            if (read_zone(&r, n, top++ == 0) < 0)
                goto out;
        } else if (named(n, "cluster")) {
            if (read_cluster(&r, n, top++ == 0) < 0)
                goto out;
        } else {
            unsupported(&r, n);
            goto out;
        }
    }
    if (!r.have_cluster) {
        snprintf(err, errlen, "%s: no <cluster> element; Situ's model needs a cluster platform",
                 path);
        goto out;
    }
    if (platform_check_references(path, text, len, err, errlen) < 0)
        goto out;
    rc = 0;
out:
    if (r.names)
        xmlHashFree(r.names, NULL);
    if (doc)
        xmlFreeDoc(doc);
    free(text);
    if (rc < 0)
        platform_free(pf);
    return rc;
}

void platform_free(struct platform *pf)
{
    free(pf->radicals);
    pf->radicals = NULL;
    pf->hosts = 0;
}

void platform_host_name(const struct platform *pf, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s%d%s", pf->prefix, pf->radicals[i], pf->suffix);
}

int platform_host_index(const struct platform *pf, const char *name)
{
    size_t pl = strlen(pf->prefix), sl = strlen(pf->suffix), nl = strlen(name);
    /* "dahu-3" names the same host as "dahu-3.grid5000.fr", as in an MPI hostfile. */
    if (nl <= sl || strcmp(name + nl - sl, pf->suffix))
        sl = 0;
    if (nl <= pl + sl || strncmp(name, pf->prefix, pl))
        return -1;
    /* The radical is exactly what lies between prefix and suffix (a suffix may start with a
     * digit: strtol on the whole name would read into it). */
    char digits[32], *end;
    size_t dl = nl - pl - sl;
    if (dl >= sizeof digits)
        return -1;
    memcpy(digits, name + pl, dl);
    digits[dl] = 0;
    long r = strtol(digits, &end, 10);
    if (*end)
        return -1;
    for (int i = 0; i < pf->hosts; i++)
        if (pf->radicals[i] == r)
            return i;
    return -1;
}
