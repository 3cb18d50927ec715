#include "runner_cache.h"

#include <stdlib.h>
#include <string.h>

#define BUCKETS 1024 /* power of two */

struct centry {
    uint64_t hash;
    char *key;
    struct sim_result res;
    struct centry *next; /* in its bucket */
};

struct rcache {
    struct centry *buckets[BUCKETS];
    struct centry **fifo; /* insertion order, oldest at head: what eviction takes */
    int max, head, count;
};

uint64_t rcache_hash(const char *key)
{
    uint64_t h = 1469598103934665603ull;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 1099511628211ull;
    return h;
}

struct rcache *rcache_new(int max)
{
    struct rcache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max = max > 0 ? max : 4096;
    c->fifo = calloc((size_t)c->max, sizeof *c->fifo);
    if (!c->fifo) {
        free(c);
        return NULL;
    }
    return c;
}

static struct centry *find(const struct rcache *c, const char *key, uint64_t h)
{
    for (struct centry *e = c->buckets[h & (BUCKETS - 1)]; e; e = e->next)
        if (e->hash == h && !strcmp(e->key, key))
            return e;
    return NULL;
}

static void evict_oldest(struct rcache *c)
{
    struct centry *old = c->fifo[c->head];
    struct centry **pp = &c->buckets[old->hash & (BUCKETS - 1)];
    while (*pp != old)
        pp = &(*pp)->next;
    *pp = old->next;
    result_free(&old->res);
    free(old->key);
    free(old);
    c->fifo[c->head] = NULL;
    c->head = (c->head + 1) % c->max;
    c->count--;
}

void rcache_free(struct rcache *c)
{
    if (!c)
        return;
    while (c->count)
        evict_oldest(c);
    free(c->fifo);
    free(c);
}

const struct sim_result *rcache_get(const struct rcache *c, const char *key, uint64_t h)
{
    struct centry *e = find(c, key, h);
    return e ? &e->res : NULL;
}

void rcache_put(struct rcache *c, const char *key, uint64_t h, const struct sim_result *res)
{
    struct centry *e = find(c, key, h);
    if (e) {
        struct sim_result copy;
        if (result_copy(&copy, res) == 0) {
            result_free(&e->res);
            e->res = copy;
        }
        return;
    }
    if (c->count == c->max)
        evict_oldest(c);
    e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->key = strdup(key);
    if (!e->key || result_copy(&e->res, res) < 0) {
        free(e->key);
        free(e);
        return;
    }
    e->hash = h;
    e->next = c->buckets[h & (BUCKETS - 1)];
    c->buckets[h & (BUCKETS - 1)] = e;
    c->fifo[(c->head + c->count) % c->max] = e;
    c->count++;
}
