/* The runner's memory of results: configuration key -> parsed result, bounded, oldest evicted
 * first. Returning to a configuration seen in this session is a lookup, not a simulation. */
#ifndef SITU_RUNNER_CACHE_H
#define SITU_RUNNER_CACHE_H

#include <stdint.h>

#include "../model/result.h"

struct rcache;

/* NULL if out of memory. max <= 0 means 4096 entries. */
struct rcache *rcache_new(int max);
void rcache_free(struct rcache *c);

/* FNV-1a of a key: the runner compares jobs by it before comparing the keys. */
uint64_t rcache_hash(const char *key);

/* The result stored under key (h = rcache_hash(key)), or NULL. Valid until the next rcache_put. */
const struct sim_result *rcache_get(const struct rcache *c, const char *key, uint64_t h);

/* Stores a copy of res; a result already under key is replaced (a forced re-run is newer). A
 * copy that cannot be allocated is simply not stored: a miss only costs a simulation. */
void rcache_put(struct rcache *c, const char *key, uint64_t h, const struct sim_result *res);

#endif
