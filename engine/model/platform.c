/* The digest in memory: reading it (JSON from the SimGrid child or the cache), the route table,
 * and the lookups the layout and the model make. Loading and caching: platform_load.c. */
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/infile.h"

/* route_cap is a power of two (grow_routes doubles it from 1024): a mask, not a division, in
 * the model's most frequent lookup. The slot is taken from the product's high bits, which both
 * hosts reach (from bits 17 up, a's shifted by 32 reached none below 32: every route to one host
 * shared a slot, and a lookup walked runs of as many routes as hosts). */
static size_t route_slot(const struct platform *pf, int a, int b)
{
    uint64_t h =
        ((uint64_t)(unsigned)a * 0x9E3779B97F4A7C15ull + (unsigned)b) * 0xBF58476D1CE4E5B9ull;
    return (size_t)(h >> 32) & ((size_t)pf->route_cap - 1);
}

const int *platform_route(const struct platform *pf, int a, int b, int *n)
{
    if (!pf->route_cap)
        return NULL;
    size_t mask = (size_t)pf->route_cap - 1;
    for (size_t at = route_slot(pf, a, b);; at = (at + 1) & mask) {
        const struct platform_route *r = &pf->route[at];
        if (r->a < 0)
            return NULL;
        if (r->a == a && r->b == b) {
            *n = r->n;
            return pf->route_links + r->first;
        }
    }
}

bool platform_routes_whole(const struct platform *pf)
{
    if ((long)pf->nroutes < (long)pf->hosts * pf->hosts)
        return false;
    for (int a = 0; a < pf->hosts; a++)
        for (int b = 0, n; b < pf->hosts; b++)
            if (!platform_route(pf, a, b, &n) || (n == 0 && a != b))
                return false;
    return true;
}

static int grow_routes(struct platform *pf)
{
    int cap = pf->route_cap ? 2 * pf->route_cap : 1024;
    struct platform_route *fresh = malloc(sizeof *fresh * (size_t)cap);
    if (!fresh)
        return -1;
    for (int i = 0; i < cap; i++)
        fresh[i].a = -1;
    struct platform_route *old = pf->route;
    int old_cap = pf->route_cap;
    pf->route = fresh;
    pf->route_cap = cap;
    for (int i = 0; i < old_cap; i++) {
        if (old[i].a < 0)
            continue;
        size_t at = route_slot(pf, old[i].a, old[i].b);
        while (fresh[at].a >= 0)
            at = (at + 1) % (size_t)cap;
        fresh[at] = old[i];
    }
    free(old);
    return 0;
}

/* Adds the route a -> b (links[n], indices already checked); a known route is kept. */
static int add_route(struct platform *pf, int a, int b, const int *links, int n)
{
    int known;
    if (platform_route(pf, a, b, &known))
        return 0;
    if (2 * (pf->nroutes + 1) > pf->route_cap && grow_routes(pf) < 0)
        return -1;
    /* The table exists once any route does, a route of no link included: platform_route returns
     * a pointer into it, which must not be NULL plus an offset. */
    if (!pf->route_links || pf->nroute_links + n > pf->route_links_cap) {
        long cap = pf->route_links_cap ? 2 * pf->route_links_cap : 4096;
        while (cap < pf->nroute_links + n)
            cap *= 2;
        int *grown = realloc(pf->route_links, sizeof *grown * (size_t)cap);
        if (!grown)
            return -1;
        pf->route_links = grown;
        pf->route_links_cap = cap;
    }
    size_t at = route_slot(pf, a, b);
    while (pf->route[at].a >= 0)
        at = (at + 1) % (size_t)pf->route_cap;
    pf->route[at] = (struct platform_route){a, b, n, (int)pf->nroute_links};
    memcpy(pf->route_links + pf->nroute_links, links, sizeof *links * (size_t)n);
    pf->nroute_links += n;
    pf->nroutes++;
    return 0;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* The "routes" array of a digest: [[a, b, [link, ...]], ...]. */
static int read_routes(struct platform *pf, json_t *routes, char *err, size_t errlen)
{
    size_t i;
    json_t *r;
    int links[1024];
    json_array_foreach(routes, i, r)
    {
        json_t *ls = json_array_get(r, 2);
        json_int_t a = json_integer_value(json_array_get(r, 0));
        json_int_t b = json_integer_value(json_array_get(r, 1));
        size_t n = json_array_size(ls);
        if (!json_is_array(r) || a < 0 || a >= pf->hosts || b < 0 || b >= pf->hosts ||
            !json_is_array(ls) || n > sizeof links / sizeof links[0]) {
            char from[128] = "?", to[128] = "?";
            if (a >= 0 && a < pf->hosts)
                platform_host_name(pf, (int)a, from, sizeof from);
            if (b >= 0 && b < pf->hosts)
                platform_host_name(pf, (int)b, to, sizeof to);
            if (n > sizeof links / sizeof links[0])
                snprintf(err, errlen, "route from %s to %s: %zu links, Situ takes up to %zu", from,
                         to, n, sizeof links / sizeof links[0]);
            else
                snprintf(err, errlen, "route #%zu (from %s to %s) names an unknown host", i + 1,
                         from, to);
            return -1;
        }
        for (size_t k = 0; k < n; k++) {
            json_t *v = json_array_get(ls, k);
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) >= pf->nlinks) {
                char from[128], to[128];
                platform_host_name(pf, (int)a, from, sizeof from);
                platform_host_name(pf, (int)b, to, sizeof to);
                snprintf(err, errlen, "route from %s to %s names an unknown link", from, to);
                return -1;
            }
            links[k] = (int)json_integer_value(v);
        }
        if (add_route(pf, (int)a, (int)b, links, (int)n) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

int platform_add_routes(struct platform *pf, const char *json, size_t len, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *doc = json_loadb(json, len, 0, &jerr);
    json_t *routes = json_object_get(doc, "routes");
    int rc = json_is_array(routes) ? read_routes(pf, routes, err, errlen) : -1;
    if (!json_is_array(routes))
        snprintf(err, errlen, "no routes in the digest (%s)", jerr.text);
    json_decref(doc);
    return rc;
}

static int read_hosts(struct platform *pf, json_t *hosts, char *err, size_t errlen)
{
    size_t n = json_array_size(hosts), i;
    json_t *h;
    if (n < 1 || n > PLATFORM_MAX_HOSTS) {
        snprintf(err, errlen, "%zu hosts (Situ takes 1 to %d)", n, PLATFORM_MAX_HOSTS);
        return -1;
    }
    pf->host = calloc(n, sizeof *pf->host);
    if (!pf->host)
        goto oom;
    pf->hosts = (int)n;
    json_array_foreach(hosts, i, h)
    {
        const char *name = json_string_value(json_array_get(h, 0));
        double speed = json_number_value(json_array_get(h, 1));
        json_int_t cores = json_integer_value(json_array_get(h, 2));
        if (!name || !(speed > 0) || !isfinite(speed) || cores < 1 || cores > 1 << 20) {
            /* Which host and which of its values: a speed of "0f" gets this far in SimGrid. */
            if (!name)
                snprintf(err, errlen, "host #%zu has no name", i + 1);
            else if (!(speed > 0) || !isfinite(speed))
                snprintf(err, errlen, "host '%s': speed %g flop/s, expected a positive number",
                         name, speed);
            else
                snprintf(err, errlen, "host '%s': %lld cores, expected 1 to %d", name,
                         (long long)cores, 1 << 20);
            return -1;
        }
        pf->host[i] = (struct platform_host){dup_text(name), speed, (int)cores};
        if (!pf->host[i].name)
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

static int read_links(struct platform *pf, json_t *links, char *err, size_t errlen)
{
    size_t n = json_array_size(links), i;
    json_t *l;
    pf->link = calloc(n ? n : 1, sizeof *pf->link);
    if (!pf->link)
        goto oom;
    pf->nlinks = (int)n;
    json_array_foreach(links, i, l)
    {
        const char *name = json_string_value(json_array_get(l, 0));
        const char *place = json_string_value(json_array_get(l, 4));
        double bw = json_number_value(json_array_get(l, 1));
        double lat = json_number_value(json_array_get(l, 2));
        if (!name || !place || !(bw > 0) || !isfinite(bw) || !(lat >= 0) || !isfinite(lat)) {
            if (!name || !place)
                snprintf(err, errlen, "link #%zu has no %s", i + 1, name ? "place" : "name");
            else if (!(bw > 0) || !isfinite(bw)) /* "0Bps", or a bandwidth_file's 0 */
                snprintf(err, errlen, "link '%s': bandwidth %g B/s, expected a positive number",
                         name, bw);
            else
                snprintf(err, errlen, "link '%s': latency %g s, expected 0 or more", name, lat);
            return -1;
        }
        struct platform_link *k = &pf->link[i];
        *k = (struct platform_link){.name = dup_text(name),
                                    .bw = bw,
                                    .lat = lat,
                                    .shared = json_is_true(json_array_get(l, 3))};
        snprintf(k->place, sizeof k->place, "%s", place);
        if (!k->name)
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

static int read_zones(struct platform *pf, json_t *zones, char *err, size_t errlen)
{
    size_t n = json_array_size(zones), i;
    json_t *z;
    pf->zone = calloc(n ? n : 1, sizeof *pf->zone);
    if (!pf->zone)
        goto oom;
    pf->nzones = (int)n;
    json_array_foreach(zones, i, z)
    {
        const char *name = json_string_value(json_array_get(z, 0));
        json_t *hs = json_array_get(z, 1);
        if (!name || !json_is_array(hs)) {
            if (!name)
                snprintf(err, errlen, "zone #%zu has no name", i + 1);
            else
                snprintf(err, errlen, "zone '%s' has no list of hosts", name);
            return -1;
        }
        struct platform_zone *zone = &pf->zone[i];
        zone->name = dup_text(name);
        zone->hosts = malloc(sizeof(int) * (json_array_size(hs) + 1));
        if (!zone->name || !zone->hosts)
            goto oom;
        /* SimGrid lists a zone's hosts in its own order: keep the digest's, ascending. */
        char *in = calloc((size_t)pf->hosts, 1);
        if (!in)
            goto oom;
        for (size_t j = 0; j < json_array_size(hs); j++) {
            json_int_t h = json_integer_value(json_array_get(hs, j));
            if (h >= 0 && h < pf->hosts)
                in[h] = 1;
        }
        for (int h = 0; h < pf->hosts; h++)
            if (in[h])
                zone->hosts[zone->nhosts++] = h;
        free(in);
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* The "disks" array, [[host, read B/s, write B/s], ...]: absent in format 1 (no disks). */
static int read_disks(struct platform *pf, json_t *disks, char *err, size_t errlen)
{
    size_t n = json_array_size(disks), i;
    json_t *d;
    pf->disk = calloc(n ? n : 1, sizeof *pf->disk);
    if (!pf->disk) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    json_array_foreach(disks, i, d)
    {
        json_int_t h = json_integer_value(json_array_get(d, 0));
        double r = json_number_value(json_array_get(d, 1));
        double w = json_number_value(json_array_get(d, 2));
        if (h < 0 || h >= pf->hosts || !(r > 0) || !isfinite(r) || !(w > 0) || !isfinite(w)) {
            if (h < 0 || h >= pf->hosts)
                snprintf(err, errlen, "disk #%zu names an unknown host", i + 1);
            else
                snprintf(err, errlen,
                         "host '%s': disk bandwidths %g and %g B/s, expected positive numbers",
                         pf->host[h].name, r, w);
            return -1;
        }
        pf->disk[pf->ndisks++] = (struct platform_disk){(int)h, r, w};
    }
    return 0;
}

int platform_parse_digest(const char *json, size_t len, struct platform *pf, char *err,
                          size_t errlen)
{
    char why[256] = "";
    json_error_t jerr;
    json_t *doc = json_loadb(json, len, 0, &jerr);
    memset(pf, 0, sizeof *pf);
    int rc = -1;
    if (!json_is_object(doc))
        snprintf(why, sizeof why, "not JSON (%s)", jerr.text);
    else if (json_integer_value(json_object_get(doc, "format")) != 1 &&
             json_integer_value(json_object_get(doc, "format")) != 2) /* 1: no disks */
        snprintf(why, sizeof why, "an unknown digest format");
    else if (read_hosts(pf, json_object_get(doc, "hosts"), why, sizeof why) == 0 &&
             read_links(pf, json_object_get(doc, "links"), why, sizeof why) == 0 &&
             read_zones(pf, json_object_get(doc, "zones"), why, sizeof why) == 0 &&
             read_routes(pf, json_object_get(doc, "routes"), why, sizeof why) == 0 &&
             read_disks(pf, json_object_get(doc, "disks"), why, sizeof why) == 0)
        rc = 0;
    json_decref(doc);
    if (rc < 0) {
        snprintf(err, errlen, "platform digest: %s", why);
        platform_free(pf);
    }
    return rc;
}

void platform_free(struct platform *pf)
{
    for (int i = 0; pf->host && i < pf->hosts; i++)
        free(pf->host[i].name);
    for (int i = 0; pf->link && i < pf->nlinks; i++)
        free(pf->link[i].name);
    for (int i = 0; pf->zone && i < pf->nzones; i++) {
        free(pf->zone[i].name);
        free(pf->zone[i].hosts);
    }
    free(pf->host);
    free(pf->link);
    free(pf->zone);
    free(pf->disk);
    free(pf->route);
    free(pf->route_links);
    memset(pf, 0, sizeof *pf);
}

int platform_copy(struct platform *dst, const struct platform *src)
{
    *dst = *src;
    dst->host = calloc((size_t)src->hosts + 1, sizeof *dst->host);
    dst->link = calloc((size_t)src->nlinks + 1, sizeof *dst->link);
    dst->zone = calloc((size_t)src->nzones + 1, sizeof *dst->zone);
    dst->route = malloc(sizeof *dst->route * ((size_t)src->route_cap + 1));
    dst->route_links = malloc(sizeof(int) * ((size_t)src->route_links_cap + 1));
    dst->disk = malloc(sizeof *dst->disk * ((size_t)src->ndisks + 1));
    bool ok = dst->host && dst->link && dst->zone && dst->route && dst->route_links && dst->disk;
    if (ok && src->ndisks)
        memcpy(dst->disk, src->disk, sizeof *dst->disk * (size_t)src->ndisks);
    /* Counts follow what is copied, so that a failure frees only that. */
    dst->hosts = dst->nlinks = dst->nzones = 0;
    for (int i = 0; ok && i < src->hosts; i++, dst->hosts++)
        ok = (dst->host[i] = src->host[i], dst->host[i].name = dup_text(src->host[i].name));
    for (int i = 0; ok && i < src->nlinks; i++, dst->nlinks++)
        ok = (dst->link[i] = src->link[i], dst->link[i].name = dup_text(src->link[i].name));
    for (int i = 0; ok && i < src->nzones; i++, dst->nzones++) {
        dst->zone[i] = src->zone[i];
        dst->zone[i].name = dup_text(src->zone[i].name);
        dst->zone[i].hosts = malloc(sizeof(int) * ((size_t)src->zone[i].nhosts + 1));
        ok = dst->zone[i].name && dst->zone[i].hosts;
        if (ok)
            memcpy(dst->zone[i].hosts, src->zone[i].hosts, sizeof(int) * src->zone[i].nhosts);
    }
    if (ok && src->route_cap)
        memcpy(dst->route, src->route, sizeof *dst->route * (size_t)src->route_cap);
    if (ok && src->nroute_links)
        memcpy(dst->route_links, src->route_links, sizeof(int) * (size_t)src->nroute_links);
    if (!ok) {
        dst->hosts += dst->host && dst->hosts < src->hosts; /* the half-copied one */
        platform_free(dst);
        return -1;
    }
    return 0;
}

void platform_host_name(const struct platform *pf, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s", i >= 0 && i < pf->hosts ? pf->host[i].name : "");
}

int platform_host_index(const struct platform *pf, const char *name)
{
    for (int i = 0; i < pf->hosts; i++)
        if (!strcmp(pf->host[i].name, name))
            return i;
    size_t n = strlen(name);
    for (int i = 0; i < pf->hosts; i++) /* the short name: "dahu-7" for dahu-7.grid5000.fr */
        if (!strncmp(pf->host[i].name, name, n) && pf->host[i].name[n] == '.')
            return i;
    return -1;
}

const struct platform_zone *platform_zone(const struct platform *pf, const char *name)
{
    for (int i = 0; i < pf->nzones; i++)
        if (!strcmp(pf->zone[i].name, name))
            return &pf->zone[i];
    return NULL;
}

int platform_link_index(const struct platform *pf, const char *name)
{
    for (int i = 0; i < pf->nlinks; i++)
        if (!strcmp(pf->link[i].name, name))
            return i;
    return -1;
}

void platform_summary(const struct platform *pf, char *buf, size_t len)
{
    double smin = INFINITY, smax = 0, bw = 0;
    int cmin = 1 << 30, cmax = 0;
    for (int i = 0; i < pf->hosts; i++) {
        smin = fmin(smin, pf->host[i].speed), smax = fmax(smax, pf->host[i].speed);
        cmin = cmin < pf->host[i].cores ? cmin : pf->host[i].cores;
        cmax = cmax > pf->host[i].cores ? cmax : pf->host[i].cores;
    }
    for (int i = 0; i < pf->nlinks; i++)
        if (!strcmp(pf->link[i].place, "node") || !strcmp(pf->link[i].place, "torus"))
            bw = fmax(bw, pf->link[i].bw);
    char cores[32], speed[48];
    snprintf(cores, sizeof cores, cmin == cmax ? "%d" : "%d-%d", cmin, cmax);
    snprintf(speed, sizeof speed, smin == smax ? "%.3g" : "%.3g-%.3g", smin / 1e9, smax / 1e9);
    snprintf(buf, len, "%d nodes x %s cores, %s Gf/s, %.3g Gb/s", pf->hosts, cores, speed,
             bw * 8 / 1e9);
}

int platform_text_read(struct platform_text *t, int fd)
{
    if (t->len + 65537 > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1 << 17;
        char *grown = realloc(t->buf, cap);
        if (!grown)
            return -1;
        t->buf = grown;
        t->cap = cap;
    }
    ssize_t n = read(fd, t->buf + t->len, 65536);
    if (n < 0 && errno == EINTR)
        return 1;
    if (n <= 0)
        return n < 0 ? -1 : 0;
    t->len += (size_t)n;
    t->buf[t->len] = 0;
    return 1;
}

int platform_read_text(const char *path, struct platform_text *t, char *err, size_t errlen)
{
    *t = (struct platform_text){0};
    if (infile_read(path, "platform", PLATFORM_MAX_BYTES, &t->buf, &t->len, err, errlen) < 0)
        return -1;
    t->cap = t->len + 1;
    return 0;
}

int platform_read_digest(const char *path, struct platform *pf, char *err, size_t errlen)
{
    struct platform_text t;
    memset(pf, 0, sizeof *pf);
    if (platform_read_text(path, &t, err, errlen) < 0)
        return -1;
    int rc = platform_parse_digest(t.buf ? t.buf : "", t.len, pf, err, errlen);
    free(t.buf);
    return rc;
}
