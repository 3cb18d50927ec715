#include "sim_links.h"

#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

#include "../model/platform.h"
#include "../model/sim_measure.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(situ_sim_links, situ_sim, "the links each transfer is counted on");

void sim_links_init(struct sim_links *s)
{
    memset(s, 0, sizeof *s);
}

static int link_index(struct sim_links *s, sg_link_t l)
{
    intptr_t idx = (intptr_t)sg_link_get_data(l);
    if (idx > 0)
        return (int)idx - 1;
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->link = realloc(s->link, s->cap * sizeof *s->link);
        s->bytes = realloc(s->bytes, s->cap * sizeof *s->bytes);
        if (!s->link || !s->bytes)
            abort();
    }
    s->link[s->count] = l;
    s->bytes[s->count] = 0;
    sg_link_set_data(l, (void *)(intptr_t)(s->count + 1));
    return s->count++;
}

static size_t route_hash(sg_host_t a, sg_host_t b)
{
    uintptr_t h = (uintptr_t)a * 0x9E3779B97F4A7C15ull ^ ((uintptr_t)b + 0x632BE59BD9B4E019ull);
    return (size_t)(h ^ (h >> 29));
}

static struct route *route_of(struct sim_links *s, sg_host_t src, sg_host_t dst)
{
    if (2 * (s->nroutes + 1) > s->route_cap) {
        int cap = s->route_cap ? s->route_cap * 2 : 256;
        struct route *fresh = calloc(cap, sizeof *fresh);
        if (!fresh)
            abort();
        for (int i = 0; i < s->route_cap; i++) {
            struct route *r = &s->routes[i];
            if (!r->src)
                continue;
            size_t at = route_hash(r->src, r->dst) % cap;
            while (fresh[at].src)
                at = (at + 1) % cap;
            fresh[at] = *r;
        }
        free(s->routes);
        s->routes = fresh;
        s->route_cap = cap;
    }
    size_t at = route_hash(src, dst) % s->route_cap;
    while (s->routes[at].src) {
        if (s->routes[at].src == src && s->routes[at].dst == dst)
            return &s->routes[at];
        at = (at + 1) % s->route_cap;
    }
    struct route *r = &s->routes[at];
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(src, dst, links);
    r->nlinks = (int)xbt_dynar_length(links);
    r->links = malloc(sizeof(int) * (r->nlinks ? r->nlinks : 1));
    if (!r->links)
        abort();
    for (int i = 0; i < r->nlinks; i++) {
        sg_link_t l;
        xbt_dynar_get_cpy(links, i, &l);
        r->links[i] = link_index(s, l);
    }
    xbt_dynar_free(&links);
    XBT_DEBUG("route %s -> %s: %d links", sg_host_get_name(src), sg_host_get_name(dst), r->nlinks);
    r->src = src;
    r->dst = dst;
    s->nroutes++;
    return r;
}

void sim_links_count(struct sim_links *s, sg_host_t src, sg_host_t dst, double bytes)
{
    const struct route *r = route_of(s, src, dst);
    for (int i = 0; i < r->nlinks; i++)
        s->bytes[r->links[i]] += bytes;
}

double sim_links_latency(struct sim_links *s, sg_host_t src, sg_host_t dst)
{
    const struct route *r = route_of(s, src, dst);
    double lat = 0;
    for (int i = 0; i < r->nlinks; i++)
        lat += sg_link_get_latency(s->link[r->links[i]]);
    return lat;
}

double sim_links_bandwidth(struct sim_links *s, sg_host_t src, sg_host_t dst)
{
    const struct route *r = route_of(s, src, dst);
    double bw = INFINITY;
    for (int i = 0; i < r->nlinks; i++)
        bw = fmin(bw, sg_link_get_bandwidth(s->link[r->links[i]]));
    return bw;
}

int sim_links_report(const struct sim_links *s, const struct platform *pf, double makespan,
                     struct sim_link **out)
{
    int n = 0;
    *out = calloc(s->count ? s->count : 1, sizeof **out);
    if (!*out)
        return 0;
    for (int i = 0; i < s->count; i++) {
        if (s->bytes[i] <= 0)
            continue;
        struct sim_link *l = &(*out)[n++];
        snprintf(l->name, sizeof l->name, "%s", sg_link_get_name(s->link[i]));
        int at = platform_link_index(pf, l->name);
        snprintf(l->place, sizeof l->place, "%s", at >= 0 ? pf->link[at].place : "");
        l->bytes = s->bytes[i];
        l->bandwidth = sg_link_get_bandwidth(s->link[i]);
        l->utilisation = makespan > 0 ? l->bytes / (l->bandwidth * makespan) : 0;
    }
    return n;
}

void sim_links_free(struct sim_links *s)
{
    for (int i = 0; i < s->route_cap; i++)
        free(s->routes[i].links);
    free(s->routes);
    free(s->link);
    free(s->bytes);
    memset(s, 0, sizeof *s);
}
