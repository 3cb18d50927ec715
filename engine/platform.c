#include "platform.h"

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct unit {
    const char *suffix;
    double factor;
};

/* SimGrid's unit suffixes (see its platform documentation). Longest suffixes first. */
static const struct unit bandwidth_units[] = {{"TiBps", 1099511627776.0},
                                              {"GiBps", 1073741824.0},
                                              {"MiBps", 1048576.0},
                                              {"KiBps", 1024.0},
                                              {"Tibps", 137438953472.0},
                                              {"Gibps", 134217728.0},
                                              {"Mibps", 131072.0},
                                              {"Kibps", 128.0},
                                              {"TBps", 1e12},
                                              {"GBps", 1e9},
                                              {"MBps", 1e6},
                                              {"kBps", 1e3},
                                              {"Tbps", 1.25e11},
                                              {"Gbps", 1.25e8},
                                              {"Mbps", 1.25e5},
                                              {"kbps", 125.0},
                                              {"Bps", 1},
                                              {"bps", 0.125},
                                              {NULL, 0}};
static const struct unit time_units[] = {{"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12},
                                         {"w", 604800}, {"d", 86400}, {"h", 3600},  {"m", 60},
                                         {"s", 1},      {NULL, 0}};
static const struct unit speed_units[] = {{"yottaflops", 1e24}, {"Ef", 1e18}, {"Pf", 1e15},
                                          {"Tf", 1e12},         {"Gf", 1e9},  {"Mf", 1e6},
                                          {"kf", 1e3},          {"f", 1},     {NULL, 0}};

int platform_parse_unit(const char *text, char kind, double *out)
{
    const struct unit *units = kind == 'b'   ? bandwidth_units
                               : kind == 't' ? time_units
                                             : speed_units;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v < 0)
        return -1;
    if (!*end)
        return -1; /* SimGrid requires a unit; so do we, so that both read the file alike */
    for (const struct unit *u = units; u->suffix; u++) {
        if (!strcmp(end, u->suffix)) {
            *out = v * u->factor;
            return 0;
        }
    }
    return -1;
}

static int parse_radical(const char *text, struct platform *pf)
{
    int cap = 64;
    pf->radicals = malloc(sizeof(int) * cap);
    if (!pf->radicals)
        return -1;
    const char *s = text;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        /* Host names carry the radical as an int (as SimGrid does): no wrap-around. */
        if (end == s || a < 0 || a > INT_MAX)
            return -1;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a || b > INT_MAX)
                return -1;
            s = end;
        }
        if (b - a + 1 + pf->hosts > PLATFORM_MAX_HOSTS)
            return -1;
        for (long r = a; r <= b; r++) {
            if (pf->hosts == cap) {
                cap *= 2;
                int *grown = realloc(pf->radicals, sizeof(int) * cap);
                if (!grown)
                    return -1;
                pf->radicals = grown;
            }
            pf->radicals[pf->hosts++] = (int)r;
        }
        if (*s == ',' || *s == ';') {
            if (!*++s)
                return -1; /* "1-32," : SimGrid rejects the empty item, so do we */
        } else if (*s)
            return -1;
    }
    return pf->hosts > 0 ? 0 : -1;
}

static xmlNode *find_cluster(xmlNode *node)
{
    for (; node; node = node->next) {
        if (node->type != XML_ELEMENT_NODE)
            continue;
        if (!xmlStrcmp(node->name, (const xmlChar *)"cluster"))
            return node;
        xmlNode *inner = find_cluster(node->children);
        if (inner)
            return inner;
    }
    return NULL;
}

/* Reads attribute `name` of `node` into a quantity; `required` decides whether absence is an
 * error. Returns 0, or -1 with err set. */
static int read_quantity(xmlNode *node, const char *name, char kind, bool required, double *out,
                         const char *path, char *err, size_t errlen)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    if (!v) {
        if (!required)
            return 0;
        snprintf(err, errlen, "%s: <cluster> has no '%s' attribute", path, name);
        return -1;
    }
    int rc = platform_parse_unit((const char *)v, kind, out);
    if (rc < 0 || (kind != 't' && *out <= 0))
        snprintf(err, errlen, "%s: <cluster %s=\"%.40s\">: expected a positive %s with a unit",
                 path, name, (const char *)v,
                 kind == 'b'   ? "bandwidth (e.g. 10Gbps)"
                 : kind == 't' ? "time (e.g. 15us)"
                               : "speed (e.g. 1Gf)");
    xmlFree(v);
    return rc < 0 || (kind != 't' && *out <= 0) ? -1 : 0;
}

static int read_text(xmlNode *node, const char *name, char *buf, size_t len)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    buf[0] = 0;
    if (!v)
        return -1;
    int rc = xmlStrlen(v) < (int)len ? 0 : -2; /* -1: absent, -2: too long */
    if (rc == 0)
        snprintf(buf, len, "%s", (const char *)v);
    xmlFree(v);
    return rc;
}

static void silent_xml_errors(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

int platform_load(const char *path, struct platform *pf, char *err, size_t errlen)
{
    int rc = -1;
    xmlDoc *doc = NULL;
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
    xmlSetGenericErrorFunc(NULL, silent_xml_errors);
    /* No network, no entity expansion: a platform file is data, not a program. */
    doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
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
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"platform")) {
        snprintf(err, errlen, "%s: expected a <platform> root element", path);
        goto out;
    }
    xmlNode *c = find_cluster(root->children);
    if (!c) {
        snprintf(err, errlen, "%s: no <cluster> element; Situ's model needs a cluster platform",
                 path);
        goto out;
    }
    /* Absent is fine; too long is not (host and link names would silently change). */
    if (read_text(c, "id", pf->cluster_id, sizeof pf->cluster_id) == -2 ||
        read_text(c, "prefix", pf->prefix, sizeof pf->prefix) == -2 ||
        read_text(c, "suffix", pf->suffix, sizeof pf->suffix) == -2) {
        snprintf(err, errlen, "%s: <cluster> id, prefix and suffix must be shorter than %zu bytes",
                 path, sizeof pf->prefix);
        goto out;
    }
    char radical[4096];
    if (read_text(c, "radical", radical, sizeof radical) < 0 || parse_radical(radical, pf) < 0) {
        snprintf(err, errlen,
                 "%s: <cluster radical> must be ranges like \"1-32\" (at most %d hosts)", path,
                 PLATFORM_MAX_HOSTS);
        goto out;
    }
    char cores[32] = "1";
    xmlChar *cv = xmlGetProp(c, (const xmlChar *)"core");
    if (cv) {
        snprintf(cores, sizeof cores, "%s", (const char *)cv);
        xmlFree(cv);
    }
    char *end;
    long ncores = strtol(cores, &end, 10);
    if (*end || ncores < 1 || ncores > 4096) {
        snprintf(err, errlen, "%s: <cluster core=\"%s\">: expected an integer in [1, 4096]", path,
                 cores);
        goto out;
    }
    pf->cores = (int)ncores;
    if (read_quantity(c, "speed", 'f', true, &pf->speed, path, err, errlen) < 0 ||
        read_quantity(c, "bw", 'b', true, &pf->bw, path, err, errlen) < 0 ||
        read_quantity(c, "lat", 't', true, &pf->lat, path, err, errlen) < 0 ||
        read_quantity(c, "loopback_bw", 'b', false, &pf->loopback_bw, path, err, errlen) < 0 ||
        read_quantity(c, "loopback_lat", 't', false, &pf->loopback_lat, path, err, errlen) < 0 ||
        read_quantity(c, "bb_bw", 'b', false, &pf->backbone_bw, path, err, errlen) < 0 ||
        read_quantity(c, "bb_lat", 't', false, &pf->backbone_lat, path, err, errlen) < 0)
        goto out;
    char policy[32];
    pf->split_duplex =
        read_text(c, "sharing_policy", policy, sizeof policy) < 0 || !strcmp(policy, "SPLITDUPLEX");
    rc = 0;
out:
    if (doc)
        xmlFreeDoc(doc);
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
